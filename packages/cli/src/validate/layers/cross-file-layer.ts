// Layer 3, the cross-file `tool_id` linter (L4668): `host_api.tools` refs and executa refs
// resolve to declared ids, `bundled:<handle>` through app.json to an executa `anna-app dev`
// discovers (R165), with distance-1 suggestions. What the platform or the dev harness accepts
// but would trip an author is a warning (real-world-plugins.md "Apps", "More traps").
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import {
  type AppManifest,
  bundledExecutasOf,
  bundledHandle,
  formatSpecMessage,
  normalizeExecutaRef,
  parseToolRef,
  suggestClosest,
} from "@anna-ai/app-schema";
import type { DiscoveryResult, LaunchError } from "@anna-ai/executa-host";
import { discoverExecutas } from "@anna-ai/executa-host";
import type { ValidateContext } from "../context.js";
import type { ProjectState } from "../project-state.js";
import { APP_JSON, EXECUTAS_DIR } from "./schema-layer.js";
import { emitPending } from "./ui-layer.js";

const NO_VERSION_PROBE = (): Promise<string | undefined> => Promise.resolve(undefined);

/** The generated id map bundles read (real-world-plugins.md "Apps"). */
export const TOOL_IDS_FILE = "anna-tool-ids.js";

type RefList = "required" | "optional";

interface DeclaredRef {
  readonly list: RefList;
  readonly toolId: string;
  readonly pointer: string;
}

async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch {
    return false;
  }
}

function declaredRefs(manifest: AppManifest): DeclaredRef[] {
  const out: DeclaredRef[] = [];
  for (const list of ["required", "optional"] as const) {
    manifest[`${list}_executas`].forEach((ref, index) => {
      out.push({
        list,
        toolId: normalizeExecutaRef(ref).tool_id,
        pointer:
          typeof ref === "string"
            ? `/${list}_executas/${index}`
            : `/${list}_executas/${index}/tool_id`,
      });
    });
  }
  return out;
}

function suggestion(
  value: string,
  candidates: Iterable<string>,
): { text: string; single?: string } {
  const found = suggestClosest(value, candidates, 1);
  if (found.length === 0) return { text: "" };
  const text = ` Did you mean ${found.map((c) => JSON.stringify(c)).join(" or ")}?`;
  return found.length === 1 ? { text, single: found[0] as string } : { text };
}

export async function runCrossFileLayer(ctx: ValidateContext, state: ProjectState): Promise<void> {
  emitPending(ctx, state, "cross-file");
  const manifest = state.manifest;
  const manifestFile = ctx.paths.manifest;
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
    discovery = { specs: [], warnings: [], errors: [] };
  }
  state.discovery = discovery;
  await reportDiscovery(ctx, discovery.warnings, discovery.errors);

  const localIds = new Set(discovery.specs.map((spec) => spec.toolId));
  const specByDir = new Map(discovery.specs.map((spec) => [path.resolve(spec.dir), spec]));
  const handles = state.listing
    ? bundledExecutasOf(state.listing)
    : new Map<string, { path: string }>();
  /** handle → the tool_id discovered at its path (undefined when none was). */
  const handleIds = new Map<string, string | undefined>();
  for (const [handle, entry] of handles) {
    handleIds.set(handle, await resolveHandle(ctx, state, handle, entry.path, specByDir));
  }
  if (manifest === undefined) return;

  const refs = declaredRefs(manifest);
  const referenced = new Set<string>();
  /** False when the handle cannot be resolved at all (reported here). */
  const checkHandle = (
    value: string,
    pointer: string,
    rewrite: (handle: string) => string,
    written: string = value,
  ): boolean => {
    const handle = bundledHandle(value);
    if (handle === undefined) return true;
    if (state.listingFile === undefined) {
      ctx.report("cross-file", manifestFile, pointer, {
        severity: "warning",
        code: "bundled.no_app_json",
        message: `"${value}" refers to a bundled executa, but there is no ${APP_JSON} to resolve the handle; add ${APP_JSON} with "bundled_executas": {"${handle}": {"path": "${EXECUTAS_DIR}/${handle}"}}`,
      });
      return true;
    }
    if (handles.has(handle)) {
      const id = handleIds.get(handle);
      if (id !== undefined) referenced.add(id);
      return true;
    }
    const hint = suggestion(handle, handles.keys());
    ctx.report("cross-file", manifestFile, pointer, {
      severity: "error",
      code: "bundled.unknown_handle",
      message: `"${value}": app.json bundled_executas has no handle "${handle}".${hint.text} Handles: ${[...handles.keys()].join(", ") || "(none)"}`,
    });
    if (hint.single !== undefined) {
      ctx.fixes.push({
        kind: "replace",
        file: manifestFile,
        pointer,
        from: written,
        to: rewrite(hint.single),
      });
    }
    return false;
  };

  for (const ref of refs) {
    if (ref.toolId.startsWith("bundled:")) {
      checkHandle(ref.toolId, ref.pointer, (handle) => `bundled:${handle}`);
      continue;
    }
    if (localIds.has(ref.toolId)) {
      referenced.add(ref.toolId);
      continue;
    }
    const hint = suggestion(ref.toolId, localIds);
    if (hint.text === "") continue;
    ctx.report("cross-file", manifestFile, ref.pointer, {
      severity: "warning",
      code: "executa_ref.near_local",
      message: `tool_id "${ref.toolId}" is not an executa under ${EXECUTAS_DIR}/ (catalogue ids cannot be checked offline).${hint.text}`,
    });
  }

  hostApiTools(ctx, manifest, refs, handleIds, checkHandle);

  for (const spec of discovery.specs) {
    if (referenced.has(spec.toolId)) continue;
    const dir = ctx.rel(spec.dir);
    ctx.report("cross-file", manifestFile, "/required_executas", {
      severity: "warning",
      code: "executas.unreferenced",
      message: `${dir} (tool_id "${spec.toolId}") is not referenced by required_executas or optional_executas, so the app cannot invoke it; add {"tool_id": "${spec.toolId}"} or a bundled:<handle> ref`,
    });
  }
  await staleToolIds(ctx, handleIds);
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

async function resolveHandle(
  ctx: ValidateContext,
  state: ProjectState,
  handle: string,
  relPath: string,
  specByDir: ReadonlyMap<string, { toolId: string }>,
): Promise<string | undefined> {
  const listingFile = state.listingFile as string;
  const pointer = `/bundled_executas/${handle.replaceAll("~", "~0").replaceAll("/", "~1")}/path`;
  const folder = path.resolve(ctx.paths.root, relPath);
  const spec = specByDir.get(folder);
  if (spec !== undefined) return spec.toolId;
  const verbatim = formatSpecMessage("bundledHandleNotFound", { handle, path: relPath }).text;
  let why: string;
  if (!(await exists(folder))) why = `${relPath} does not exist`;
  else if (await exists(path.join(folder, "SKILL.md"))) {
    why = `${relPath} is a skill folder (SKILL.md); skills are published separately, not as bundled executas`;
  } else if (path.dirname(folder) !== path.resolve(ctx.paths.root, EXECUTAS_DIR)) {
    why = `${relPath} is not directly under ${EXECUTAS_DIR}/, the only place anna-app dev discovers executas`;
  } else why = `anna-app dev found no executa in ${relPath} (see the executas findings above)`;
  ctx.report("cross-file", listingFile, pointer, {
    severity: "warning",
    code: "bundled.not_discovered",
    message: `bundled handle "${handle}" resolves to no executa: ${why}; refs to bundled:${handle} cannot be invoked locally`,
    specMessage: verbatim,
  });
  return undefined;
}

function hostApiTools(
  ctx: ValidateContext,
  manifest: AppManifest,
  refs: readonly DeclaredRef[],
  handleIds: ReadonlyMap<string, string | undefined>,
  checkHandle: (
    value: string,
    pointer: string,
    rewrite: (handle: string) => string,
    written?: string,
  ) => boolean,
): void {
  const tools = manifest.ui?.host_api?.tools ?? [];
  const resolved = (toolId: string): string | undefined => {
    const handle = bundledHandle(toolId);
    return handle === undefined ? toolId : handleIds.get(handle);
  };
  tools.forEach((ref, index) => {
    const pointer = `/ui/host_api/tools/${index}`;
    const parsed = parseToolRef(ref);
    if (parsed === undefined || parsed.kind === "all") return;
    const prefix = ref.slice(0, ref.length - parsed.toolId.length);
    const candidates = refs.filter((r) => parsed.kind === "bare" || r.list === parsed.list);
    if (!parsed.toolId.startsWith("bundled:")) {
      // The undeclared case itself is reported by validateAppManifest; a single distance-1
      // candidate makes it fixable.
      if (
        candidates.some((r) => r.toolId === parsed.toolId || resolved(r.toolId) === parsed.toolId)
      )
        return;
      const hint = suggestion(parsed.toolId, new Set(candidates.map((r) => r.toolId)));
      if (hint.single !== undefined) {
        ctx.fixes.push({
          kind: "replace",
          file: ctx.paths.manifest,
          pointer,
          from: ref,
          to: prefix + hint.single,
        });
      }
      return;
    }
    if (!checkHandle(parsed.toolId, pointer, (handle) => `${prefix}bundled:${handle}`, ref)) return;
    const target = resolved(parsed.toolId);
    const declared = candidates.some(
      (r) => r.toolId === parsed.toolId || (target !== undefined && resolved(r.toolId) === target),
    );
    if (declared) return;
    const where =
      parsed.kind === "listed"
        ? `${parsed.list}_executas`
        : "required_executas or optional_executas";
    ctx.report("cross-file", ctx.paths.manifest, pointer, {
      severity: "error",
      code: "ui.host_api.tools.undeclared",
      message: `"${ref}" names ${JSON.stringify(parsed.toolId)}, which is not in ${where}; declare {"tool_id": ${JSON.stringify(parsed.toolId)}} there or use "required:*"`,
      specMessage: formatSpecMessage("hostApiToolsUndeclared", { ref }).text,
    });
  });
}

/** A committed `anna-tool-ids.js` whose ids differ from the local executa.json files. */
async function staleToolIds(
  ctx: ValidateContext,
  handleIds: ReadonlyMap<string, string | undefined>,
): Promise<void> {
  const file = path.join(ctx.paths.bundle, TOOL_IDS_FILE);
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch {
    return;
  }
  const lines = text.split("\n");
  lines.forEach((line, lineIndex) => {
    for (const match of line.matchAll(/["']?([\w.-]+)["']?\s*:\s*["']([^"']+)["']/g)) {
      const handle = match[1] as string;
      const committed = match[2] as string;
      const local = handleIds.get(handle);
      if (local === undefined || local === committed) continue;
      ctx.reportAt(
        "cross-file",
        file,
        { line: lineIndex + 1, column: match.index + 1 },
        {
          severity: "warning",
          code: "bundle.tool_ids_stale",
          message: `${TOOL_IDS_FILE} maps "${handle}" to "${committed}" but the local executa's tool_id is "${local}"; anna-app dev serves a generated map, but a bundle deployed with this file calls the wrong id — delete it or regenerate it`,
        },
      );
    }
  });
}
