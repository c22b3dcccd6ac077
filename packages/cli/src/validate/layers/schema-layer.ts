// Layer 1, JSON Schema (L4666): manifest.json, app.json and every executas/<name>/executa.json
// through the validators of @anna-ai/app-schema — the same definitions the server uses.
import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import {
  type AppIssue,
  AppManifestSchema,
  validateAppListing,
  validateAppManifest,
  validateExecutaJson,
} from "@anna-ai/app-schema";
import { isIgnoredFolder, SKILL_FILE, skillFromExecutaJson } from "@anna-ai/executa-host";
import type { ValidateContext } from "../context.js";
import type { ValidateLayer } from "../diagnostic.js";
import { layerOfIssue, type ProjectState } from "../project-state.js";

export const APP_JSON = "app.json";
export const EXECUTAS_DIR = "executas";

function emit(ctx: ValidateContext, layer: ValidateLayer, file: string, issue: AppIssue): void {
  ctx.report(layer, file, issue.pointer, {
    severity: issue.severity,
    code: issue.code,
    message: issue.message,
    ...(issue.specMessage === undefined ? {} : { specMessage: issue.specMessage }),
  });
}

export async function runSchemaLayer(ctx: ValidateContext, state: ProjectState): Promise<void> {
  const manifestFile = ctx.paths.manifest;
  const doc = await ctx.readJson(manifestFile, {
    layer: "parse",
    required: true,
    what: "the app manifest",
  });
  if (doc !== undefined) {
    state.manifestRaw = doc.value;
    const result = validateAppManifest(doc.value);
    for (const issue of result.issues) {
      const layer = layerOfIssue(issue.code);
      if (layer === "schema") emit(ctx, "schema", manifestFile, issue);
      else {
        const list = state.pending.get(layer) ?? [];
        list.push({ file: manifestFile, issue });
        state.pending.set(layer, list);
      }
    }
    if (result.value !== undefined) state.manifest = result.value;
    else if (
      !result.issues.some((i) => i.severity === "error" && layerOfIssue(i.code) === "schema")
    ) {
      // The structure held and only later-layer rules failed: those layers still need the
      // parsed manifest (validateAppManifest returns a value only when everything passed).
      const parsed = AppManifestSchema.safeParse(doc.value);
      if (parsed.success) state.manifest = parsed.data;
    }
  }

  const listingFile = path.join(ctx.paths.root, APP_JSON);
  const listingDoc = await ctx.readJson(listingFile, {
    layer: "parse",
    required: false,
    what: "the app listing",
  });
  if (listingDoc !== undefined) {
    const result = validateAppListing(listingDoc.value);
    for (const issue of result.issues) emit(ctx, "schema", listingFile, issue);
    state.listingFile = listingFile;
    if (result.value !== undefined) state.listing = result.value;
  }

  for (const file of await executaJsonFiles(path.join(ctx.paths.root, EXECUTAS_DIR))) {
    const executaDoc = await ctx.readJson(file, {
      layer: "parse",
      required: false,
      what: "executa.json",
    });
    if (executaDoc === undefined) continue;
    const dirName = path.basename(path.dirname(file));
    const skill = isRecord(executaDoc.value)
      ? skillFromExecutaJson(executaDoc.value, path.dirname(file))
      : undefined;
    if (skill !== undefined) {
      // A skill, not a tool: no tool_id or type; its content file is what gets published.
      if (!(await isFile(skill.contentFile))) {
        ctx.report("schema", file, "/content_file", {
          severity: "error",
          code: "executa_json.skill_content_missing",
          message: `skill content file ${path.relative(path.dirname(file), skill.contentFile)} does not exist; add it or point "content_file" at the skill's markdown (usually ${SKILL_FILE})`,
        });
      }
      continue;
    }
    // tool_id/type missing only makes `anna-app dev` skip the folder; discovery reports that
    // (layer 3) with the same verbatim warning, so it is not repeated here.
    const result = validateExecutaJson(executaDoc.value, { dirName });
    for (const issue of result.issues) {
      if (
        issue.code === "executa_json.tool_id_missing" ||
        issue.code === "executa_json.type_missing"
      )
        continue;
      emit(ctx, "schema", file, issue);
    }
  }
}

/** `executas/<name>/executa.json` for each folder discovery would look at. */
async function executaJsonFiles(executasDir: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(executasDir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .filter((entry) => entry.isDirectory() && !isIgnoredFolder(entry.name))
    .map((entry) => entry.name)
    .sort()
    .map((name) => path.join(executasDir, name, "executa.json"));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

async function isFile(file: string): Promise<boolean> {
  return stat(file).then(
    (s) => s.isFile(),
    () => false,
  );
}
