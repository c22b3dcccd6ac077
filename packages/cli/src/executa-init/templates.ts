// The `executa init` templates: real plugin projects under packages/cli/templates/executa/<name>/,
// shipped in the npm package (`files`), copied with placeholder substitution.
import { fileURLToPath } from "node:url";

export const EXECUTA_TEMPLATES = ["python", "node", "go", "ts"] as const;
export type ExecutaTemplate = (typeof EXECUTA_TEMPLATES)[number];
/** R166 / L11589: python unless --template says otherwise. */
export const DEFAULT_TEMPLATE: ExecutaTemplate = "python";

/** One line per template for `--help`. */
export const TEMPLATE_SUMMARIES: Readonly<Record<ExecutaTemplate, string>> = {
  python: "stdlib Python, pyproject.toml for uv run with a python3 fallback, unittest",
  node: "plain ESM JavaScript without dependencies, node:test",
  go: "stdlib Go 1.19, executa.json of type go, go test",
  ts: "TypeScript on @anna-ai/executa-sdk, built with npm install + npm run build",
};

/**
 * The folder holding one folder per template. Resolved from this module, which sits at
 * `src/executa-init/` in the source tree and `dist/executa-init/` once built: both are two levels
 * below the package root.
 */
export function templatesRoot(): string {
  return fileURLToPath(new URL("../../templates/executa/", import.meta.url));
}

/** The CLI package root (beside `templates/`), used to find the SDK and the CLI's own package. */
export function cliPackageRoot(): string {
  return fileURLToPath(new URL("../../", import.meta.url));
}
