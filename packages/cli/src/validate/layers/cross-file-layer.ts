// Layer 3, the cross-file `tool_id` linter (L4668): `host_api.tools` refs and executa refs
// resolve to declared ids, `bundled:<handle>` through app.json to an executa `anna-app dev`
// discovers (R165), with distance-1 suggestions. What the platform or the dev harness accepts
// but would trip an author is a warning (real-world-plugins.md "Apps", "More traps").
import { stat } from "node:fs/promises";
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
import type { ValidateContext } from "../context.js";
import type { ProjectState } from "../project-state.js";
import { checkDevFixtures } from "./dev-fixtures.js";
import { discoverAndReport } from "./discovery-findings.js";
import { APP_JSON, EXECUTAS_DIR } from "./schema-layer.js";
import { staleToolIds } from "./tool-ids-file.js";
import { emitPending } from "./ui-layer.js";

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

function isDisabled(executaJson: unknown): boolean {
  return (
    typeof executaJson === "object" &&
    executaJson !== null &&
    (executaJson as { enabled?: unknown }).enabled === false
  );
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
  const discovery = await discoverAndReport(ctx);
  state.discovery = discovery;

  const localIds = new Set(discovery.specs.map((spec) => spec.toolId));
  const specByDir = new Map(discovery.specs.map((spec) => [path.resolve(spec.dir), spec]));
  const handles = state.listing
    ? bundledExecutasOf(state.listing)
    : new Map<string, { path: string }>();
  /** handle → the tool_id discovered at its path (undefined when none was). */
  const handleIds = new Map<string, string | undefined>();
  // Bundled skills are published as skills (real-world-plugins.md): not a broken tool ref.
  const skillDirs = new Set(discovery.skills.map((skill) => path.resolve(skill.dir)));
  for (const [handle, entry] of handles) {
    if (skillDirs.has(path.resolve(ctx.paths.root, entry.path))) {
      handleIds.set(handle, undefined);
      continue;
    }
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
      message:
        handles.size === 0
          ? `"${value}": app.json has no bundled_executas to resolve "${handle}"; add "bundled_executas": {"${handle}": {"path": "${EXECUTAS_DIR}/${handle}"}} to app.json`
          : `"${value}": app.json bundled_executas has no handle "${handle}".${hint.text} Handles: ${[...handles.keys()].join(", ")}`,
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
  await checkDevFixtures(ctx, manifest);

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
  else if (path.dirname(folder) !== path.resolve(ctx.paths.root, EXECUTAS_DIR)) {
    why = `${relPath} is not directly under ${EXECUTAS_DIR}/, the only place anna-app dev discovers executas`;
  } else if (isDisabled(ctx.document(path.join(folder, "executa.json"))?.value)) {
    why = `${relPath}/executa.json sets "enabled": false, so anna-app dev skips it; remove that to run it`;
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
