import {
  type BinaryArtifact,
  type Distribution,
  EXECUTA_TYPES,
  type ExecutaJson,
  ExecutaJsonSchema,
} from "../executa/executa-json.js";
import { type AppIssue, type AppValidation, appIssue, hasErrors } from "./issues.js";
import { isDocumentObject, notAnObject, parseDocument } from "./parse-document.js";
import { formatSpecMessage } from "./spec-messages.js";
import { didYouMean } from "./suggest.js";
import { quote } from "./text.js";

/**
 * Rules for an `executa.json` beside a plugin (L11575–L11583, T31, T37, R74–R76, R165). The
 * schema (`ExecutaJsonSchema`) is liberal — extra keys such as `transport` and `_comment` pass —
 * and this adds what `anna-app dev` and the publish pipeline check.
 */

export const DISTRIBUTION_TYPES = Object.freeze([
  "uv",
  "npm",
  "pipx",
  "homebrew",
  "binary",
  "local",
] as const);
/** `{system}-{machine}` keys the installer knows (R75) plus its wildcards (R76). */
export const BINARY_PLATFORM_KEYS = Object.freeze([
  "darwin-arm64",
  "darwin-x86_64",
  "linux-x86_64",
  "linux-aarch64",
  "linux-armv7l",
  "windows-x86_64",
  "windows-arm64",
] as const);
/**
 * Platform keys a pushed artifact (`binary_artifacts`, uploaded through Nexus) may use: the list
 * the published CLI 0.1.47 checks locally and says mirrors the server's. It differs from R75's
 * installer list (it adds `linux-arm64`, lacks `linux-armv7l`); both client and server use this one.
 */
export const BINARY_UPLOAD_PLATFORM_KEYS = Object.freeze([
  "darwin-arm64",
  "darwin-x86_64",
  "linux-x86_64",
  "linux-arm64",
  "linux-aarch64",
  "windows-x86_64",
  "windows-arm64",
] as const);
/** At most this many platforms per upload (real-world-cli.md §B). */
export const MAX_BINARY_PLATFORMS = 8;
/** Each pushed artifact is 1 byte to 1 GiB (real-world-cli.md §B). */
export const MAX_BINARY_ARTIFACT_BYTES = 1024 ** 3;
/** The placeholders an artifact `path` may hold, expanded at upload time (L2527). */
export const BINARY_ARTIFACT_PLACEHOLDERS = Object.freeze([
  "version",
  "platform",
  "tool_id",
] as const);
export const BINARY_PLATFORM_WILDCARDS = Object.freeze(["*", "any", "universal"] as const);
export const BINARY_ASSET_FORMATS = Object.freeze(["tar.gz", "tgz", "zip", "raw"] as const);
/** Pushed artifacts must be archives: bare executables are rejected (T37). */
export const BINARY_ARTIFACT_FORMATS = Object.freeze(["tar.gz", "tgz", "zip"] as const);
const SHA256_PATTERN = /^[0-9a-f]{64}$/;

export interface ExecutaJsonOptions {
  /** The folder name, for the messages `anna-app dev` prints (`⚠ skipping executa <name>: …`). */
  readonly dirName?: string;
}

type Path = (string | number)[];

/** The installer normalizes the host's machine name (`amd64`, `x64` → `x86_64`, R75), not keys. */
function platformHint(key: string): string {
  const normalized = key.replace(/-(amd64|x64)$/, "-x86_64").replace(/^macos-/, "darwin-");
  if (normalized !== key && (BINARY_PLATFORM_KEYS as readonly string[]).includes(normalized)) {
    return ` Did you mean "${normalized}"?`;
  }
  return didYouMean(key, BINARY_PLATFORM_KEYS);
}

function platformKeyIssue(key: string, path: Path, out: AppIssue[]): void {
  if ((BINARY_PLATFORM_KEYS as readonly string[]).includes(key)) return;
  if ((BINARY_PLATFORM_WILDCARDS as readonly string[]).includes(key)) return;
  out.push(
    appIssue(
      "warning",
      "executa_json.platform_key",
      path,
      `platform key ${quote(key)} is not one the installer resolves.${platformHint(key)} Known: ${BINARY_PLATFORM_KEYS.join(", ")}, or * for any`,
    ),
  );
}

function distributionRules(distribution: Distribution, path: Path, out: AppIssue[]): void {
  const kind = distribution.distribution_type ?? distribution.type;
  if (typeof kind === "string" && !(DISTRIBUTION_TYPES as readonly string[]).includes(kind)) {
    out.push(
      appIssue(
        "warning",
        "executa_json.distribution_type",
        [...path, distribution.distribution_type === undefined ? "type" : "distribution_type"],
        `distribution type ${quote(kind)} is not one of ${DISTRIBUTION_TYPES.join(", ")}.${didYouMean(kind, DISTRIBUTION_TYPES)}`,
      ),
    );
  }
  const urls = distribution.binary_urls ?? undefined;
  const artifacts = distribution.binary_artifacts ?? undefined;
  if (urls !== undefined && artifacts !== undefined) {
    out.push(
      appIssue(
        "error",
        "executa_json.binary_source_both",
        path,
        "declare exactly one of binary_artifacts (uploaded by anna-app) or binary_urls (mirrored from public URLs), not both",
      ),
    );
  }
  for (const [key, value] of Object.entries(urls ?? {})) {
    const at: Path = [...path, "binary_urls", key];
    platformKeyIssue(key, at, out);
    if (typeof value === "string") continue;
    if (value.sha256 !== undefined && value.sha256 !== null && !SHA256_PATTERN.test(value.sha256)) {
      out.push(
        appIssue(
          "error",
          "executa_json.sha256",
          [...at, "sha256"],
          "sha256 must be 64 lowercase hex characters (the installer compares it byte for byte)",
        ),
      );
    }
    if (
      value.format !== undefined &&
      value.format !== null &&
      !(BINARY_ASSET_FORMATS as readonly string[]).includes(value.format)
    ) {
      out.push(
        appIssue(
          "error",
          "executa_json.asset_format",
          [...at, "format"],
          `format ${quote(value.format)} must be one of ${BINARY_ASSET_FORMATS.join(", ")} (or omitted to infer it from the URL)`,
        ),
      );
    }
  }
  if (artifacts !== undefined) artifactRules(artifacts, kind, path, out);
}

/** `binary_artifacts` (T37, real-world-cli.md §B): archives on known upload platforms. */
function artifactRules(
  artifacts: Record<string, BinaryArtifact>,
  kind: unknown,
  path: Path,
  out: AppIssue[],
): void {
  if (typeof kind === "string" && kind !== "binary") {
    out.push(
      appIssue(
        "error",
        "executa_json.artifacts_type",
        [...path, "binary_artifacts"],
        `binary_artifacts only work with distribution type "binary" (this one is ${quote(kind)}); set "type": "binary" or drop binary_artifacts`,
      ),
    );
  }
  const keys = Object.keys(artifacts);
  if (keys.length > MAX_BINARY_PLATFORMS) {
    out.push(
      appIssue(
        "error",
        "executa_json.artifacts_count",
        [...path, "binary_artifacts"],
        `binary_artifacts lists ${keys.length} platforms; at most ${MAX_BINARY_PLATFORMS} are uploaded`,
      ),
    );
  }
  for (const [key, value] of Object.entries(artifacts)) {
    const at: Path = [...path, "binary_artifacts", key];
    if (!(BINARY_UPLOAD_PLATFORM_KEYS as readonly string[]).includes(key)) {
      out.push(
        appIssue(
          "error",
          "executa_json.artifact_platform",
          at,
          `platform key ${quote(key)} cannot be uploaded.${didYouMean(key, BINARY_UPLOAD_PLATFORM_KEYS)} Use one of ${BINARY_UPLOAD_PLATFORM_KEYS.join(", ")}`,
        ),
      );
    }
    for (const m of value.path.matchAll(/\{([^}]*)\}/g)) {
      if (!(BINARY_ARTIFACT_PLACEHOLDERS as readonly string[]).includes(m[1] as string)) {
        out.push(
          appIssue(
            "error",
            "executa_json.artifact_placeholder",
            [...at, "path"],
            `placeholder ${quote(m[0])} is unknown; a path may use ${BINARY_ARTIFACT_PLACEHOLDERS.map((p) => `{${p}}`).join(", ")}`,
          ),
        );
      }
    }
    const format = value.format ?? inferFormat(value.path);
    if (!(BINARY_ARTIFACT_FORMATS as readonly string[]).includes(format)) {
      out.push(
        appIssue(
          "error",
          "executa_json.artifact_format",
          [...at, value.format === undefined || value.format === null ? "path" : "format"],
          `binary artifacts must be archives (${BINARY_ARTIFACT_FORMATS.join(", ")}); bare executables are rejected — pack ${quote(value.path)} into a .tar.gz or .zip`,
        ),
      );
    }
  }
}

function inferFormat(path: string): string {
  if (path.endsWith(".tar.gz")) return "tar.gz";
  if (path.endsWith(".tgz")) return "tgz";
  if (path.endsWith(".zip")) return "zip";
  return "raw";
}

/**
 * The wire format of a pushed artifact: `tgz` is sent as `tar.gz`; without `format` it comes
 * from the path's suffix. `undefined` when it is not an archive (bare executables are refused).
 */
export function artifactFormat(
  path: string,
  format: string | null | undefined,
): "tar.gz" | "zip" | undefined {
  const f = format ?? inferFormat(path);
  if (f === "tar.gz" || f === "tgz") return "tar.gz";
  if (f === "zip") return "zip";
  return undefined;
}

/** Validates a parsed `executa.json`. */
export function validateExecutaJson(
  raw: unknown,
  options: ExecutaJsonOptions = {},
): AppValidation<ExecutaJson> {
  if (!isDocumentObject(raw)) {
    return notAnObject(
      "schema.invalid_type",
      'executa.json must hold a JSON object, e.g. {"tool_id": "tool-dev-my-app", "type": "python"}',
    );
  }
  const parsed = parseDocument(ExecutaJsonSchema, raw);
  if (!parsed.ok) return { ok: false, issues: parsed.issues };
  const json = parsed.data;
  const issues: AppIssue[] = [];
  const name = options.dirName ?? "<dir>";
  if (json.tool_id === undefined || json.tool_id === null) {
    issues.push(
      appIssue(
        "warning",
        "executa_json.tool_id_missing",
        ["tool_id"],
        'no tool_id: anna-app dev skips this executa and every tools.invoke of it fails; add "tool_id" (the manifest\'s ref, e.g. "tool-dev-my-app")',
        formatSpecMessage("executaMissingToolId", { name }).text,
      ),
    );
  }
  if (json.type === undefined || json.type === null) {
    issues.push(
      appIssue(
        "warning",
        "executa_json.type_missing",
        ["type"],
        `no type: anna-app dev skips this executa; add "type": one of ${EXECUTA_TYPES.join(", ")}`,
      ),
    );
  } else if (!(EXECUTA_TYPES as readonly string[]).includes(json.type)) {
    issues.push(
      appIssue(
        "error",
        "executa_json.type",
        ["type"],
        `type ${quote(json.type)} must be one of ${EXECUTA_TYPES.join(", ")}.${didYouMean(json.type, EXECUTA_TYPES)}`,
      ),
    );
  }
  mcpRules(json, issues);
  const distribution = json.distribution ?? undefined;
  if (distribution !== undefined) {
    distributionRules(distribution, ["distribution"], issues);
    const profiles = distribution.profiles ?? undefined;
    if (profiles !== undefined) {
      const names = Object.keys(profiles).filter((key) => key !== "active");
      const active = profiles.active ?? undefined;
      if (active !== undefined && !names.includes(active)) {
        issues.push(
          appIssue(
            "error",
            "executa_json.profile_active",
            ["distribution", "profiles", "active"],
            `active profile ${quote(active)} is not defined; profiles are: ${names.join(", ") || "(none)"}`,
          ),
        );
      }
      for (const profile of names) {
        const value = profiles[profile];
        if (typeof value === "object" && value !== null)
          distributionRules(value, ["distribution", "profiles", profile], issues);
      }
    }
  }
  const ok = !hasErrors(issues);
  return ok ? { ok, value: json, issues } : { ok, issues };
}

/** The keys only an MCP server entry uses. */
const MCP_ONLY_KEYS = ["args", "env", "url"] as const;

/**
 * `type: "mcp"`: a stdio server (`command`, optional `args`/`env`) or a Streamable HTTP one
 * (`url`), never both. Other types carrying the MCP keys are warned: nothing reads them there.
 */
function mcpRules(json: ExecutaJson, issues: AppIssue[]): void {
  const has = (key: "command" | (typeof MCP_ONLY_KEYS)[number]) =>
    json[key] !== undefined && json[key] !== null;
  if (json.type !== "mcp") {
    for (const key of MCP_ONLY_KEYS) {
      if (has(key)) {
        issues.push(
          appIssue(
            "warning",
            "executa_json.mcp_key_unused",
            [key],
            `"${key}" is only read for "type": "mcp"; remove it, or set "type": "mcp" if this folder is an MCP server`,
          ),
        );
      }
    }
    return;
  }
  if (has("command") && has("url")) {
    issues.push(
      appIssue(
        "error",
        "executa_json.mcp_transport",
        ["url"],
        'an MCP executa has either "command" (a stdio server the host starts) or "url" (a Streamable HTTP server it connects to), not both',
      ),
    );
  } else if (!has("command") && !has("url")) {
    issues.push(
      appIssue(
        "error",
        "executa_json.mcp_transport",
        ["command"],
        'an MCP executa needs "command" (e.g. "command": "node", "args": ["server.js"]) or "url" (e.g. "url": "http://127.0.0.1:3000/mcp")',
      ),
    );
  }
  if (has("url")) {
    const url = mcpUrlProblem(json.url as string);
    if (url !== undefined) issues.push(appIssue("error", "executa_json.mcp_url", ["url"], url));
    for (const key of ["args", "env"] as const) {
      if (has(key)) {
        issues.push(
          appIssue(
            "error",
            "executa_json.mcp_transport",
            [key],
            `"${key}" belongs to a stdio server ("command"); a "url" server is not started by the host`,
          ),
        );
      }
    }
  }
}

/** Why `url` cannot be a Streamable HTTP endpoint, or undefined when it can. */
export function mcpUrlProblem(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `"url" ${quote(url)} is not an absolute URL; write it like "http://127.0.0.1:3000/mcp"`;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    return `"url" must be http:// or https:// (Streamable HTTP), got ${quote(parsed.protocol)}`;
  }
  return undefined;
}
