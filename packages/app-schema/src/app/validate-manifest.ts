import { APP_MANIFEST_KEYS, type AppManifest, AppManifestSchema } from "./manifest.js";
import { EXECUTA_REF_LATEST, ExecutaRefObjectSchema, normalizeExecutaRef } from "./executa-ref.js";
import {
  AGENT_SANDBOX_TOOLS,
  expandHostApiGrant,
  HOST_API_NAMESPACES,
  isHostApiMethod,
  isHostApiNamespace,
} from "./host-api-methods.js";
import { type AppIssue, type AppValidation, appIssue, hasErrors } from "./issues.js";
import { permissionForMethod } from "./permissions.js";
import { protoKeyIssues } from "./proto-keys.js";
import { formatSpecMessage, SPEC_MESSAGES } from "./spec-messages.js";
import { didYouMean } from "./suggest.js";
import { bundledHandle, parseToolRef } from "./tool-refs.js";
import { UiBundleSchema } from "./ui-bundle.js";
import { type UiSection, UiSectionSchema } from "./ui-section.js";
import { type UiSize, UiViewSchema } from "./ui-view.js";
import { UI_VIEWS_MAX, UI_VIEWS_MIN } from "./ui-view.js";
import { fromZodIssues } from "./zod-issues.js";

/**
 * `validateAppManifest`: the structure (zod: types, limits, allow-lists, unknown keys), then —
 * once the structure holds, as the platform's layered validator does (L5030–L5039) — the rules
 * that span fields, then warnings for what the platform accepts but is probably a mistake
 * (real-world-plugins.md "More traps").
 */

type Path = (string | number)[];

/** Executa versions are SemVer (R83); build metadata allowed, as SemVer allows it. */
const EXECUTA_VERSION_PATTERN =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z-.]+)?(?:\+[0-9A-Za-z-.]+)?$/;

function knownKeys(path: readonly (string | number)[]): readonly string[] | undefined {
  const key = path.map((segment) => (typeof segment === "number" ? "#" : segment)).join("/");
  switch (key) {
    case "":
      return APP_MANIFEST_KEYS;
    case "required_executas/#":
    case "optional_executas/#":
      return Object.keys(ExecutaRefObjectSchema.shape);
    case "ui":
      return Object.keys(UiSectionSchema.shape);
    case "ui/bundle":
      return Object.keys(UiBundleSchema.shape);
    case "ui/views/#":
      return Object.keys(UiViewSchema.shape);
    case "ui/views/#/min_size":
    case "ui/views/#/default_size":
    case "ui/views/#/max_size":
      return ["w", "h"];
    default:
      return undefined;
  }
}

const UNKNOWN_KEY_NOTE =
  '(manifest.json is parsed with extra="forbid": unknown fields are rejected)';

function executaRules(raw: Record<string, unknown>, manifest: AppManifest, out: AppIssue[]): void {
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
            `tool_id ${JSON.stringify(toolId)} is already listed at ${first}; a tool_id may appear once across required_executas and optional_executas`,
          ),
        );
      } else seen.set(toolId, here);
      if (typeof ref === "string") {
        out.push(
          appIssue(
            "warning",
            "manifest.executa_ref_string",
            [list, index],
            `write the executa ref as an object, {"tool_id": ${JSON.stringify(ref)}}; the platform's validator expects objects`,
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
              ? `write "latest" in lowercase; ${JSON.stringify(pin)} may not be recognised`
              : `version ${JSON.stringify(pin)} does not look like an ExecutaVersion (SemVer, e.g. "1.2.0") or "latest"`,
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
  duplicates(manifest.permissions, ["permissions"], "permission", out);
  duplicates(manifest.host_capabilities, ["host_capabilities"], "host capability", out);
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
}

function duplicates(values: readonly string[], path: Path, what: string, out: AppIssue[]): void {
  const seen = new Set<string>();
  values.forEach((value, index) => {
    if (seen.has(value)) {
      out.push(
        appIssue(
          "warning",
          "manifest.duplicate_value",
          [...path, index],
          `${what} ${JSON.stringify(value)} is listed twice`,
        ),
      );
    }
    seen.add(value);
  });
}

function sizeText(size: UiSize): string {
  return `${size.w}×${size.h}`;
}

function viewRules(ui: UiSection, out: AppIssue[]): void {
  const views = ui.views;
  if (views.length < UI_VIEWS_MIN || views.length > UI_VIEWS_MAX) {
    out.push(
      appIssue(
        "error",
        "ui.views.count",
        ["ui", "views"],
        `ui.views has ${views.length} views; it needs between ${UI_VIEWS_MIN} and ${UI_VIEWS_MAX}`,
        SPEC_MESSAGES.uiViewsCount.text,
      ),
    );
  }
  const names = new Map<string, number>();
  const defaults: number[] = [];
  views.forEach((view, index) => {
    const first = names.get(view.name);
    if (first !== undefined) {
      out.push(
        appIssue(
          "error",
          "ui.views.duplicate_name",
          ["ui", "views", index, "name"],
          `view name ${JSON.stringify(view.name)} is already used by /ui/views/${first}; view names must be unique`,
        ),
      );
    } else names.set(view.name, index);
    if (view.default === true) defaults.push(index);
    const { min_size: min, default_size: preferred, max_size: max } = view;
    const at = (field: string): Path => ["ui", "views", index, field];
    if (min && max && (min.w > max.w || min.h > max.h)) {
      out.push(
        appIssue(
          "error",
          "ui.views.min_above_max",
          at("min_size"),
          `view "${view.name}": min_size ${sizeText(min)} is larger than max_size ${sizeText(max)}`,
        ),
      );
    }
    if (preferred && min && (preferred.w < min.w || preferred.h < min.h)) {
      out.push(
        appIssue(
          "error",
          "ui.views.default_below_min",
          at("default_size"),
          `view "${view.name}": default_size ${sizeText(preferred)} is smaller than min_size ${sizeText(min)}; it must lie within [min_size, max_size]`,
          formatSpecMessage("viewDefaultSizeBelowMin", { name: view.name }).text,
        ),
      );
    }
    if (preferred && max && (preferred.w > max.w || preferred.h > max.h)) {
      out.push(
        appIssue(
          "error",
          "ui.views.default_above_max",
          at("default_size"),
          `view "${view.name}": default_size ${sizeText(preferred)} is larger than max_size ${sizeText(max)}; it must lie within [min_size, max_size]`,
        ),
      );
    }
  });
  if (defaults.length > 1) {
    out.push(
      appIssue(
        "error",
        "ui.views.multiple_defaults",
        ["ui", "views", defaults[1] ?? 0, "default"],
        `views ${defaults.map((i) => JSON.stringify(views[i]?.name)).join(", ")} all set default: true; at most one view may`,
        SPEC_MESSAGES.uiViewsOneDefault.text,
      ),
    );
  }
  if (defaults.length === 0 && views.length > 0) {
    out.push(
      appIssue(
        "warning",
        "ui.views.no_default",
        ["ui", "views"],
        'no view sets "default": true; open_app_view without a view name has nothing to open — mark the main view as default',
      ),
    );
  }
  const factors = ui.form_factors ?? [];
  duplicates(factors, ["ui", "form_factors"], "form factor", out);
  if (factors.length === 0 && ui.form_factors !== undefined && ui.form_factors !== null) {
    out.push(
      appIssue(
        "warning",
        "ui.form_factors.empty",
        ["ui", "form_factors"],
        'an empty form_factors means the default ["desktop"]; list the containers the app supports',
      ),
    );
  }
  const mobile = factors.includes("mobile");
  views.forEach((view, index) => {
    if (!mobile && view.mobile_entry !== undefined && view.mobile_entry !== null) {
      out.push(
        appIssue(
          "warning",
          "ui.views.mobile_entry_unused",
          ["ui", "views", index, "mobile_entry"],
          `view "${view.name}" has a mobile_entry but ui.form_factors does not include "mobile", so it is never served; add "mobile" to form_factors`,
        ),
      );
    }
  });
  if (
    ui.state_merge !== undefined &&
    ui.state_merge !== null &&
    ui.state_merge !== "last_writer_wins"
  ) {
    out.push(
      appIssue(
        "warning",
        "ui.state_merge",
        ["ui", "state_merge"],
        `state_merge ${JSON.stringify(ui.state_merge)} is not a known policy; the only one is "last_writer_wins" (reserved)`,
      ),
    );
  }
}

/**
 * Inventory Z15: the base `style-src` has `'unsafe-inline'`, and browsers ignore it once a hash or
 * nonce is present, so such an override silently breaks inline styles.
 */
function cspRules(ui: UiSection, out: AppIssue[]): void {
  const overrides = ui.csp_overrides ?? {};
  (overrides["style-src"] ?? []).forEach((value, index) => {
    if (!/^'(sha256-|nonce-)/.test(value)) return;
    out.push(
      appIssue(
        "warning",
        "ui.csp.style_src_disables_inline",
        ["ui", "csp_overrides", "style-src", index],
        `${value} in style-src makes browsers ignore the base policy's 'unsafe-inline', so inline styles stop working; drop it unless every inline style is hashed`,
      ),
    );
  });
}

function declaredIds(manifest: AppManifest, list: "required" | "optional" | "any"): Set<string> {
  const ids = new Set<string>();
  if (list !== "optional")
    for (const ref of manifest.required_executas) ids.add(normalizeExecutaRef(ref).tool_id);
  if (list !== "required")
    for (const ref of manifest.optional_executas) ids.add(normalizeExecutaRef(ref).tool_id);
  return ids;
}

function hostApiRules(manifest: AppManifest, ui: UiSection, out: AppIssue[]): void {
  const hostApi = ui.host_api;
  if (hostApi === undefined || hostApi === null) return;
  for (const namespace of Object.keys(hostApi)) {
    if (isHostApiNamespace(namespace)) continue;
    out.push(
      appIssue(
        "warning",
        "ui.host_api.unknown_namespace",
        ["ui", "host_api", namespace],
        `"${namespace}" is not a Host API namespace, so this grant opens nothing.${didYouMean(namespace, HOST_API_NAMESPACES)} Namespaces: ${HOST_API_NAMESPACES.join(", ")}`,
      ),
    );
  }
  const tools = hostApi.tools ?? [];
  tools.forEach((ref, index) => {
    const path: Path = ["ui", "host_api", "tools", index];
    const parsed = parseToolRef(ref);
    if (parsed === undefined) return;
    if (parsed.kind === "all") {
      const ids = declaredIds(manifest, parsed.list);
      if (ids.size === 0) {
        out.push(
          appIssue(
            "warning",
            "ui.host_api.tools.empty_list",
            path,
            `"${ref}" grants nothing: ${parsed.list}_executas is empty`,
          ),
        );
      }
      return;
    }
    if (parsed.kind === "bare" && (ref === "invoke" || ref === "list")) {
      out.push(
        appIssue(
          "warning",
          "ui.host_api.tools.method_name",
          path,
          `"${ref}" is read as a tool_id, not a method: host_api.tools lists executa refs; use "required:*" to allow every required executa`,
        ),
      );
      return;
    }
    // bundled:<handle> resolves through app.json, which only the cross-file validator reads.
    if (parsed.toolId.startsWith("bundled:")) return;
    const ids = declaredIds(manifest, parsed.kind === "listed" ? parsed.list : "any");
    if (ids.has(parsed.toolId)) return;
    const where =
      parsed.kind === "listed"
        ? `${parsed.list}_executas`
        : "required_executas or optional_executas";
    out.push(
      appIssue(
        "error",
        "ui.host_api.tools.undeclared",
        path,
        `"${ref}" names tool_id ${JSON.stringify(parsed.toolId)}, which is not in ${where}.${didYouMean(parsed.toolId, [...declaredIds(manifest, "any")])} Declare it there or use "required:*"`,
        formatSpecMessage("hostApiToolsUndeclared", { ref }).text,
      ),
    );
  });
  const agent = hostApi.agent;
  if (Array.isArray(agent)) {
    out.push(
      appIssue(
        "warning",
        "ui.host_api.agent.list",
        ["ui", "host_api", "agent"],
        'host_api.agent is structured: {"session": {"auto": true, "fixed": null}, "tools": [...]}; a method list enables no session submode',
      ),
    );
  } else if (agent !== undefined && agent !== null) {
    const session = agent.session;
    const fixed = session?.fixed;
    const enabled =
      session?.auto === true || (fixed !== undefined && fixed !== null && fixed !== false);
    if (!enabled) {
      out.push(
        appIssue(
          "warning",
          "ui.host_api.agent.no_submode",
          ["ui", "host_api", "agent"],
          'host_api.agent enables no session submode, so every agent.session.* call is denied; set "session": {"auto": true} or "fixed": {"client_ids": []}',
        ),
      );
    }
    // `agent.tools` holds sandbox tool names (R95) or executa tool ids (L6936), so only a
    // near-miss of a sandbox name is worth a word.
    const declared = declaredIds(manifest, "any");
    (agent.tools ?? []).forEach((tool, index) => {
      if ((AGENT_SANDBOX_TOOLS as readonly string[]).includes(tool) || declared.has(tool)) return;
      const hint = didYouMean(tool, AGENT_SANDBOX_TOOLS, 1);
      if (hint === "") return;
      out.push(
        appIssue(
          "warning",
          "ui.host_api.agent.unknown_tool",
          ["ui", "host_api", "agent", "tools", index],
          `"${tool}" is neither a sandbox agent tool nor a declared executa, so the platform drops it.${hint}`,
        ),
      );
    });
  }
  permissionWarnings(manifest, hostApi, out);
}

/**
 * Ruling A2: `ui.host_api` is the runtime gate; `permissions` are shown at install. A grant
 * without its permission works, but the install screen under-reports it.
 */
function permissionWarnings(
  manifest: AppManifest,
  hostApi: NonNullable<UiSection["host_api"]>,
  out: AppIssue[],
): void {
  const declared = new Set<string>(manifest.permissions);
  const missing = new Map<string, string[]>();
  const note = (permission: string | undefined, method: string): void => {
    if (permission === undefined || declared.has(permission)) return;
    const methods = missing.get(permission) ?? [];
    methods.push(method);
    missing.set(permission, methods);
  };
  for (const [namespace, grant] of Object.entries(hostApi)) {
    if (!Array.isArray(grant) || namespace === "tools" || namespace === "credentials") continue;
    const tokens = grant.filter((token): token is string => typeof token === "string");
    for (const method of expandHostApiGrant(namespace, tokens)) {
      note(permissionForMethod(namespace, method), `${namespace}.${method}`);
    }
  }
  if ((hostApi.tools ?? []).length > 0) note("tools.invoke", "tools.invoke");
  for (const [permission, methods] of missing) {
    out.push(
      appIssue(
        "warning",
        "manifest.permission_missing",
        ["permissions"],
        `ui.host_api grants ${methods.join(", ")} but "permissions" lacks "${permission}"; the call works (host_api is the gate) but the install screen will not show it — add "${permission}"`,
      ),
    );
  }
}

function devRules(manifest: AppManifest, out: AppIssue[]): void {
  const mocks = manifest.dev?.mocks;
  if (mocks === undefined || mocks === null) return;
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
        `dev.mocks key ${JSON.stringify(key)} is not a Host API "ns.method" (e.g. "tools.invoke"), so no call will use it`,
      ),
    );
  }
}

/** Validates a parsed `manifest.json` (BOM and JSON syntax are the caller's concern). */
export function validateAppManifest(raw: unknown): AppValidation<AppManifest> {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    return {
      ok: false,
      issues: [
        appIssue(
          "error",
          "schema.invalid_type",
          [],
          'manifest.json must hold a JSON object, e.g. {"schema": 1, "required_executas": [{"tool_id": "web_search"}]}',
        ),
      ],
    };
  }
  const protoKeys = protoKeyIssues(raw);
  const parsed = AppManifestSchema.safeParse(raw, { reportInput: true });
  if (!parsed.success || protoKeys.length > 0) {
    const structural = parsed.success
      ? []
      : fromZodIssues(parsed.error.issues, { knownKeys, unknownKeyNote: UNKNOWN_KEY_NOTE });
    const seen = new Set(structural.map((issue) => issue.pointer));
    return {
      ok: false,
      issues: [...structural, ...protoKeys.filter((issue) => !seen.has(issue.pointer))],
    };
  }
  const manifest = parsed.data;
  const issues: AppIssue[] = [];
  executaRules(raw as Record<string, unknown>, manifest, issues);
  if (manifest.ui !== undefined && manifest.ui !== null) {
    viewRules(manifest.ui, issues);
    cspRules(manifest.ui, issues);
    hostApiRules(manifest, manifest.ui, issues);
  }
  devRules(manifest, issues);
  const ok = !hasErrors(issues);
  return ok ? { ok, value: manifest, issues } : { ok, issues };
}
