// An executa folder as `executa publish` reads it (real-world-cli.md §4, §9.3): `executa.json`
// with `slug`, `name`, `version`, `executa_type` (default tool), `description`, `distribution`
// (flat, or an `active` profile among `profiles`) and, for a skill, `content_file` (default
// SKILL.md). `--bump` rewrites the version; the content hash is the sha256 of the canonical
// executa.json after the bump, as the published CLI sends it.
import { createHash } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { isAppVersion, validateExecutaJson } from "@anna-ai/app-schema";
import { canonicalJson } from "@anna-ai/executa-host/storage";
import { EXIT_INVALID_PROJECT, ExitError } from "../cli/exit-error.js";

export type Bump = "patch" | "minor" | "major";
export type JsonObject = Record<string, unknown>;

export interface ExecutaProject {
  dir: string;
  file: string;
  /** executa.json after the bump. */
  json: JsonObject;
  slug: string;
  name: string;
  version: string;
  /** Set when `--bump` changed the version. */
  bumpedFrom: string | undefined;
  type: "tool" | "skill";
  description: string | undefined;
  /** The distribution fields E2/E5 carry (only the active profile's). */
  distribution: JsonObject;
  /**
   * The active profile's `binary_artifacts` (platform → {path, entrypoint?, format?}): local
   * archives pushed through B1–B5, never sent in E2/E5.
   */
  binaryArtifacts:
    Record<string, { path: string; entrypoint?: string; format?: string }> | undefined;
  /** Skills: the text of `content_file`. */
  skillContent: string | undefined;
  executionMode: string | undefined;
  contentHash: string;
}

const SLUG_RE = /^[a-z0-9][a-z0-9-]{0,63}$/;
const DISTRIBUTION_FIELDS = [
  "package_name",
  "executable_name",
  "supports_protocol",
  "binary_urls",
  "capabilities",
] as const;

const invalid = (file: string, why: string) =>
  new ExitError(EXIT_INVALID_PROJECT, `${file}: ${why}`);

export function bumpVersion(version: string, bump: Bump): string {
  const m = /^(\d+)\.(\d+)\.(\d+)/.exec(version);
  if (!m) throw new Error(`not a version: ${version}`);
  const [major, minor, patch] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (bump === "major") return `${major + 1}.0.0`;
  if (bump === "minor") return `${major}.${minor + 1}.0`;
  // A prerelease bumps to its release (1.2.0-beta.1 → 1.2.0), as SemVer tools do.
  return version.includes("-") ? `${major}.${minor}.${patch}` : `${major}.${minor}.${patch + 1}`;
}

export async function loadExecutaProject(
  dir: string,
  opts: { bump?: Bump | undefined; profile?: string | undefined } = {},
): Promise<ExecutaProject> {
  const file = path.join(dir, "executa.json");
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch {
    throw invalid(file, "not found; run this in an executa folder (or pass --cwd <dir>)");
  }
  let json: JsonObject;
  try {
    const parsed = JSON.parse(text) as unknown;
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error();
    json = parsed as JsonObject;
  } catch {
    throw invalid(file, "is not a JSON object");
  }
  const str = (k: string) => (typeof json[k] === "string" ? (json[k] as string) : undefined);
  const slug = str("slug");
  const name = str("name");
  const version = str("version");
  const missing = [
    slug === undefined && '"slug" (e.g. "weather")',
    name === undefined && '"name" (e.g. "Weather")',
    version === undefined && '"version" (e.g. "1.0.0")',
  ].filter(Boolean);
  if (missing.length) throw invalid(file, `add ${missing.join(", ")} to publish it`);
  if (!SLUG_RE.test(slug!)) {
    throw invalid(file, `"slug" ${JSON.stringify(slug)} must be 1–64 of a-z, 0-9 and '-'`);
  }
  if (!isAppVersion(version!)) {
    throw invalid(file, `"version" ${JSON.stringify(version)} is not X.Y.Z[-prerelease]`);
  }
  const rawType = str("executa_type") ?? "tool";
  if (rawType !== "tool" && rawType !== "skill") {
    throw invalid(
      file,
      `"executa_type" must be "tool" or "skill" (got ${JSON.stringify(rawType)})`,
    );
  }
  let next = version!;
  if (opts.bump) {
    next = bumpVersion(version!, opts.bump);
    json = { ...json, version: next };
  }
  let skillContent: string | undefined;
  if (rawType === "skill") {
    const contentFile = str("content_file") ?? "SKILL.md";
    try {
      skillContent = await readFile(path.resolve(dir, contentFile), "utf8");
    } catch {
      throw invalid(file, `the skill's content_file ${contentFile} is missing`);
    }
  }
  const { fields, artifacts } = distributionFields(file, json, opts.profile);
  if (artifacts !== undefined) artifactIssues(file, json);
  return {
    dir,
    file,
    json,
    slug: slug!,
    name: name!,
    version: next,
    bumpedFrom: opts.bump ? version : undefined,
    type: rawType,
    description: str("description"),
    distribution: fields,
    binaryArtifacts: artifacts,
    skillContent,
    executionMode: str("execution_mode") ?? str("skill_execution_mode"),
    contentHash: createHash("sha256").update(canonicalJson(json), "utf8").digest("hex"),
  };
}

/** `--bump` without `--no-write`: executa.json gets the new version (2-space JSON, newline). */
export async function writeBumpedVersion(p: ExecutaProject): Promise<void> {
  await writeFile(p.file, JSON.stringify(p.json, null, 2) + "\n");
}

/** The first error app-schema finds in the binary distribution (`anna-app validate` says the same). */
function artifactIssues(file: string, json: JsonObject): void {
  const result = validateExecutaJson(json);
  const issue = result.issues.find(
    (i) => i.severity === "error" && /^executa_json\.(artifact|binary_source_both)/.test(i.code),
  );
  if (issue) throw invalid(file, `/${issue.path.join("/")}: ${issue.message}`);
}

function distributionFields(
  file: string,
  json: JsonObject,
  profile: string | undefined,
): { fields: JsonObject; artifacts: ExecutaProject["binaryArtifacts"] } {
  const d = json.distribution;
  if (d === undefined || d === null) {
    if (profile !== undefined)
      throw invalid(file, `--profile ${profile}: there is no "distribution"`);
    return { fields: {}, artifacts: undefined };
  }
  if (typeof d !== "object" || Array.isArray(d))
    throw invalid(file, '"distribution" must be an object');
  const dist = d as JsonObject;
  const profiles = dist.profiles as JsonObject | undefined;
  let chosen: JsonObject = dist;
  if (profiles && typeof profiles === "object") {
    const active =
      profile ?? (dist.active as string | undefined) ?? (profiles.active as string | undefined);
    const names = Object.keys(profiles).filter((k) => k !== "active");
    const p = active === undefined ? undefined : profiles[active];
    if (p === undefined || p === null || typeof p !== "object") {
      throw invalid(
        file,
        `distribution profile ${JSON.stringify(active ?? "(none active)")} is not declared; declared: ${names.join(", ") || "none"}`,
      );
    }
    chosen = p as JsonObject;
  } else if (profile !== undefined) {
    throw invalid(file, `--profile ${profile}: "distribution" has no profiles`);
  }
  const out: JsonObject = {};
  const type = chosen.type ?? chosen.distribution_type;
  if (typeof type === "string") out.distribution_type = type;
  for (const k of DISTRIBUTION_FIELDS) if (chosen[k] !== undefined) out[k] = chosen[k];
  if (out.capabilities === undefined && Array.isArray(json.capabilities))
    out.capabilities = json.capabilities;
  const raw = chosen.binary_artifacts;
  const artifacts =
    raw !== null && typeof raw === "object" && !Array.isArray(raw)
      ? (raw as ExecutaProject["binaryArtifacts"])
      : undefined;
  // The 0.1.47 CLI: a binary_artifacts project is distribution_type "binary" on the wire.
  if (artifacts !== undefined && out.distribution_type === undefined)
    out.distribution_type = "binary";
  return { fields: out, artifacts };
}
