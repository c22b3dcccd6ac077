// Executa discovery for validate: `discoverExecutas` of @anna-ai/executa-host — the exact
// discovery `anna-app dev` runs (R165) — and its findings placed in the files they are about.
import path from "node:path";
import { formatSpecMessage } from "@anna-ai/app-schema";
import type { DiscoveryResult, LaunchError } from "@anna-ai/executa-host";
import { discoverExecutas } from "@anna-ai/executa-host";
import type { ValidateContext } from "../context.js";
import { EXECUTAS_DIR } from "./schema-layer.js";

const NO_VERSION_PROBE = (): Promise<string | undefined> => Promise.resolve(undefined);

/** Discovers the project's executas and reports what `anna-app dev` would skip or refuse. */
export async function discoverAndReport(ctx: ValidateContext): Promise<DiscoveryResult> {
  const executasDir = path.join(ctx.paths.root, EXECUTAS_DIR);
  let discovery: DiscoveryResult;
  try {
    discovery = await discoverExecutas(executasDir, {
      // The project is checked, not the machine: toolchain version probes spawn `go version` /
      // `python3 --version` and only feed launch warnings that validate does not report.
      versionOf: NO_VERSION_PROBE,
    });
  } catch (error) {
    // An unreadable folder, not a plugin problem: report it and check the rest.
    ctx.reportAt(
      "cross-file",
      executasDir,
      { line: 0, column: 0 },
      {
        severity: "error",
        code: "executas.unreadable",
        message: `${EXECUTAS_DIR}/ cannot be scanned (${(error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error))}); check its permissions`,
      },
    );
    discovery = { specs: [], warnings: [], errors: [], skills: [] };
  }
  await reportDiscovery(ctx, discovery.warnings, discovery.errors);
  return discovery;
}

/** Discovery messages name absolute paths; reports name project-relative ones. */
function relativeText(ctx: ValidateContext, text: string): string {
  return text.replaceAll(ctx.paths.root + path.sep, "");
}

async function reportDiscovery(
  ctx: ValidateContext,
  warnings: readonly string[],
  errors: readonly LaunchError[],
): Promise<void> {
  const executasDir = path.join(ctx.paths.root, EXECUTAS_DIR);
  for (const raw of warnings) {
    const warning = relativeText(ctx, raw);
    const match = /^⚠ skipping executa (.+?): (.*)$/s.exec(warning);
    const name = match?.[1];
    const reason = match?.[2] ?? warning;
    const folder = name === undefined ? executasDir : path.join(executasDir, name);
    const executaJson = path.join(folder, "executa.json");
    const duplicate = /already provided by (.+)$/.exec(reason);
    const missingToolId = duplicate === null && reason.includes("tool_id");
    const pointer = duplicate === null && !missingToolId ? "/type" : "/tool_id";
    let finding;
    if (duplicate !== null) {
      finding = {
        code: "executas.duplicate_tool_id",
        message: `anna-app dev keeps the first folder (in name order) with this tool_id, ${duplicate[1]}, and skips this one; give each executa its own tool_id`,
        specMessage: warning,
      };
    } else {
      finding = {
        code: missingToolId ? "executas.tool_id_missing" : "executas.type_missing",
        message: `anna-app dev skips this folder (${reason}), so every tools.invoke of it fails with not_implemented`,
        ...(missingToolId && name !== undefined
          ? { specMessage: formatSpecMessage("executaMissingToolId", { name }).text }
          : {}),
      };
    }
    if (ctx.document(executaJson) !== undefined) {
      ctx.report("cross-file", executaJson, pointer, { severity: "warning", ...finding });
    } else {
      ctx.reportAt(
        "cross-file",
        folder,
        { line: 0, column: 0 },
        { severity: "warning", ...finding },
      );
    }
  }
  for (const error of errors) {
    const target = error.path ?? executasDir;
    // A missing entry is usually a plugin not built yet (dist/, bin/): the project is fine and
    // the platform never looks at it, so it is a warning. Broken files and ambiguity are errors.
    const unbuilt = error.code === "NO_PLUGIN_FOUND";
    const finding = {
      severity: unbuilt ? ("warning" as const) : ("error" as const),
      code: `executas.${error.code.toLowerCase()}`,
      message: `anna-app dev cannot start this executa${unbuilt ? " until it is built" : ""}: ${relativeText(ctx, error.message)}`,
    };
    if (target.endsWith(".json") && (await ctx.locateIn(target)) !== undefined) {
      ctx.report("cross-file", target, launchErrorPointer(error), finding);
    } else ctx.reportAt("cross-file", target, { line: 0, column: 0 }, finding);
  }
}

/** Where in executa.json / package.json a discovery error points, from its field or message. */
function launchErrorPointer(error: LaunchError): string {
  if (error.field !== undefined) return `/${error.field}`;
  const named = /: (bin|main|module)(?:\["([^"]+)"\])? /.exec(error.message);
  if (named === null) return "";
  const key = (named[2] ?? "").replaceAll("~", "~0").replaceAll("/", "~1");
  return named[2] === undefined ? `/${named[1]}` : `/${named[1]}/${key}`;
}
