import { type AppManifest } from "./manifest.js";
import { EXECUTA_REF_LATEST, normalizeExecutaRef } from "./executa-ref.js";
import { isHostApiMethod } from "./host-api-methods.js";
import { type AppIssue, appIssue } from "./issues.js";
import { bundledHandle } from "./tool-refs.js";
import { quote } from "./text.js";

/** Executa versions are SemVer (R83); build metadata allowed, as SemVer allows it. */
const EXECUTA_VERSION_PATTERN =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z-.]+)?(?:\+[0-9A-Za-z-.]+)?$/;

/**
 * Rules over the executa lists and top-level fields of a structurally valid manifest: A13,
 * `ui` presence per schema, unique tool ids (L4992), ref forms and pins, duplicate allow-list
 * entries, `aps.scope.admin`. `raw` is the document as written (to see a missing `schema`).
 */
export function manifestRules(
  raw: Readonly<Record<string, unknown>>,
  manifest: AppManifest,
): AppIssue[] {
  const out: AppIssue[] = [];
  if (!Object.hasOwn(raw, "schema")) {
    out.push(
      appIssue(
        "warning",
        "manifest.schema_missing",
        [],
        'no "schema": it defaults to 1 (no UI); write "schema": 1 or "schema": 2 explicitly',
      ),
    );
  }
  if (manifest.schema === 1 && manifest.required_executas.length === 0) {
    out.push(
      appIssue(
        "error",
        "manifest.required_executas_empty",
        ["required_executas"],
        'a schema 1 app needs at least one executa in required_executas (e.g. [{"tool_id": "web_search"}]); only schema 2 apps with a UI may leave it empty',
      ),
    );
  }
  const seen = new Map<string, string>();
  for (const list of ["required_executas", "optional_executas"] as const) {
    manifest[list].forEach((ref, index) => {
      const toolId = normalizeExecutaRef(ref).tool_id;
      const here = `/${list}/${index}`;
      const first = seen.get(toolId);
      if (first !== undefined) {
        out.push(
          appIssue(
            "error",
            "manifest.duplicate_tool_id",
            [list, index, ...(typeof ref === "string" ? [] : ["tool_id"])],
            `tool_id ${quote(toolId)} is already listed at ${first}; a tool_id may appear once across required_executas and optional_executas`,
          ),
        );
      } else seen.set(toolId, here);
      if (typeof ref === "string") {
        out.push(
          appIssue(
            "warning",
            "manifest.executa_ref_string",
            [list, index],
            `write the executa ref as an object, {"tool_id": ${quote(ref)}}; the platform's validator expects objects`,
          ),
        );
      }
      const pin = typeof ref === "string" ? undefined : ref.version;
      if (
        typeof pin === "string" &&
        pin !== EXECUTA_REF_LATEST &&
        !EXECUTA_VERSION_PATTERN.test(pin)
      ) {
        out.push(
          appIssue(
            "warning",
            "manifest.executa_version",
            [list, index, "version"],
            pin.toLowerCase() === EXECUTA_REF_LATEST
              ? `write "latest" in lowercase; ${quote(pin)} may not be recognised`
              : `version ${quote(pin)} does not look like an ExecutaVersion (SemVer, e.g. "1.2.0") or "latest"`,
          ),
        );
      }
      if (toolId.startsWith("bundled:") && bundledHandle(toolId) === undefined) {
        out.push(
          appIssue(
            "warning",
            "manifest.bundled_handle_empty",
            [list, index],
            '"bundled:" names no handle; write "bundled:<handle>" with a key of app.json bundled_executas',
          ),
        );
      }
    });
  }
  if (manifest.schema === 2 && (manifest.ui === undefined || manifest.ui === null)) {
    out.push(
      appIssue(
        "error",
        "manifest.ui_required",
        ["ui"],
        'a schema 2 manifest needs a "ui" section ({"bundle": {"entry": "index.html"}, "views": [{"name": "main", "title": "…"}]}); use schema 1 for an app without a UI',
      ),
    );
  }
  if (manifest.schema === 1 && manifest.ui !== undefined && manifest.ui !== null) {
    out.push(
      appIssue(
        "warning",
        "manifest.ui_on_schema_1",
        ["ui"],
        'the "ui" section is only used when "schema" is 2; set "schema": 2 or remove "ui"',
      ),
    );
  }
  duplicateValueIssues(manifest.permissions, ["permissions"], "permission", out);
  duplicateValueIssues(manifest.host_capabilities, ["host_capabilities"], "host capability", out);
  manifest.host_capabilities.forEach((capability, index) => {
    if (capability !== "aps.scope.admin") return;
    out.push(
      appIssue(
        "warning",
        "manifest.host_capability_admin",
        ["host_capabilities", index],
        '"aps.scope.admin" is reserved for platform pre-installed apps; a third-party app will be refused it',
      ),
    );
  });
  return out;
}

/** A warning for each repeated value of a list. */
export function duplicateValueIssues(
  values: readonly string[],
  path: readonly (string | number)[],
  what: string,
  out: AppIssue[],
): void {
  const seen = new Set<string>();
  values.forEach((value, index) => {
    if (seen.has(value)) {
      out.push(
        appIssue(
          "warning",
          "manifest.duplicate_value",
          [...path, index],
          `${what} ${quote(value)} is listed twice`,
        ),
      );
    }
    seen.add(value);
  });
}

/** The tool ids a manifest declares, in one list or both, as written (`bundled:<handle>` kept). */
export function declaredToolIds(
  manifest: AppManifest,
  list: "required" | "optional" | "any",
): Set<string> {
  const ids = new Set<string>();
  if (list !== "optional")
    for (const ref of manifest.required_executas) ids.add(normalizeExecutaRef(ref).tool_id);
  if (list !== "required")
    for (const ref of manifest.optional_executas) ids.add(normalizeExecutaRef(ref).tool_id);
  return ids;
}

/** `dev.mocks` keys must name a Host API method (or the mobile bridge) to be used. */
export function devBlockRules(manifest: AppManifest): AppIssue[] {
  const out: AppIssue[] = [];
  const mocks = manifest.dev?.mocks;
  if (mocks === undefined || mocks === null) return out;
  for (const key of Object.keys(mocks)) {
    const dot = key.indexOf(".");
    const namespace = dot < 0 ? key : key.slice(0, dot);
    const method = dot < 0 ? "" : key.slice(dot + 1);
    // `anna.mobile.*` (the native bridge) is mocked here for phone-free runs (L6881).
    if (isHostApiMethod(namespace, method) || namespace === "mobile") continue;
    out.push(
      appIssue(
        "warning",
        "dev.mocks.unknown_method",
        ["dev", "mocks", key],
        `dev.mocks key ${quote(key)} is not a Host API "ns.method" (e.g. "tools.invoke"), so no call will use it`,
      ),
    );
  }
  return out;
}
