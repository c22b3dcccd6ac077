// Layer 4, `--strict` (L4669): every Host API call the bundle makes must be granted by
// `manifest.ui.host_api`, or production answers it with `permission_denied` (L5535). The grep
// heuristic is documented in host-api-calls.ts and docs/validate.md.
import { readFile, stat } from "node:fs/promises";
import { type AppManifest, hostApiAllows } from "@anna-ai/app-schema";
import type { ValidateContext } from "../context.js";
import type { SourceLocation } from "../diagnostic.js";
import { findHostApiCalls, lineColumn } from "../host-api-calls.js";
import type { ProjectState } from "../project-state.js";
import { walkFiles } from "../walk.js";

const SCRIPT_FILE = /\.(m?js|cjs|jsx|tsx?|html?|vue|svelte)$/;
/** A single bundle file larger than this is not grepped (it is data, not code). */
export const STRICT_FILE_MAX_BYTES = 32 * 1024 * 1024;
/** Call sites listed per finding. */
const MAX_SITES = 5;

type Grant = { granted: true } | { granted: false; why: string; fixable: boolean };

/** The dispatcher's own gate (`hostApiAllows`), plus why a denied call is denied. */
function grantFor(manifest: AppManifest, namespace: string, method: string): Grant {
  if (namespace === "tools") {
    // Open at the method level (L6386: an omitted list allows every declared executa), but
    // with no executa declared there is nothing a tools call could reach.
    const declared = manifest.required_executas.length + manifest.optional_executas.length;
    if (declared > 0 || (manifest.ui?.host_api?.tools ?? []).length > 0) return { granted: true };
    return {
      granted: false,
      why: "the manifest declares no executa (required_executas and optional_executas are empty), so there is nothing to invoke",
      fixable: false,
    };
  }
  if (hostApiAllows(manifest.ui?.host_api, namespace, method)) return { granted: true };
  if (namespace === "credentials") {
    return {
      granted: false,
      why: 'ui.host_api.credentials lists no provider; add the provider ids the app reads (e.g. ["google"])',
      fixable: false,
    };
  }
  if (namespace === "agent") {
    return {
      granted: false,
      why: 'ui.host_api.agent enables no session submode; set "agent": {"session": {"auto": true}} (or "fixed": {"client_ids": []})',
      fixable: false,
    };
  }
  return { granted: false, why: `add "${method}" to ui.host_api.${namespace}`, fixable: true };
}

export async function runStrictLayer(ctx: ValidateContext, state: ProjectState): Promise<void> {
  const manifest = state.manifest;
  if (manifest === undefined || manifest.ui === undefined || manifest.ui === null) return;
  const bundleDir = ctx.paths.bundle;
  try {
    if (!(await stat(bundleDir)).isDirectory()) throw new Error("not a folder");
  } catch {
    ctx.report("strict", ctx.paths.manifest, "/ui/host_api", {
      severity: "warning",
      code: "strict.no_bundle",
      message: `--strict found no bundle folder at ${ctx.rel(bundleDir)} to grep; build the bundle or pass --bundle <dir>`,
    });
    return;
  }
  const sites = new Map<string, SourceLocation[]>();
  for (const file of await walkFiles(bundleDir, {
    accept: (name) => SCRIPT_FILE.test(name) && !name.endsWith(".d.ts"),
  })) {
    if ((await stat(file)).size > STRICT_FILE_MAX_BYTES) continue;
    const text = await readFile(file, "utf8");
    for (const call of findHostApiCalls(text)) {
      const key = `${call.namespace}.${call.method}`;
      const list = sites.get(key) ?? [];
      if (list.length < MAX_SITES)
        list.push({ file: ctx.rel(file), ...lineColumn(text, call.offset) });
      sites.set(key, list);
    }
  }
  for (const [key, related] of sites) {
    const dot = key.indexOf(".");
    const namespace = key.slice(0, dot);
    const method = key.slice(dot + 1);
    const grant = grantFor(manifest, namespace, method);
    if (grant.granted) continue;
    const where = related.map((site) => `${site.file}:${site.line}:${site.column}`).join(", ");
    ctx.report("strict", ctx.paths.manifest, `/ui/host_api/${namespace}`, {
      severity: "error",
      code: "strict.not_granted",
      message: `the bundle calls ${key} (${where}) but ui.host_api does not grant it, so the call fails with permission_denied; ${grant.why}`,
      related,
    });
    if (grant.fixable)
      ctx.fixes.push({ kind: "grant", file: ctx.paths.manifest, namespace, method });
  }
}
