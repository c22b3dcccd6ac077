/**
 * Validator messages the spec quotes, verbatim (ruling A11), with an English explanation so a
 * validator can print both. `{name}`-style placeholders mark the parts the platform fills in.
 */

export interface SpecMessage {
  /** Verbatim text, Chinese where the platform's validator speaks Chinese. */
  readonly text: string;
  /** What it means and what to do, in English. */
  readonly english: string;
  /** Where the spec quotes it. */
  readonly source: string;
}

export const SPEC_MESSAGES = Object.freeze({
  uiBundleFormat: {
    text: "ui.bundle.format 当前仅支持 'static-spa'",
    english: "ui.bundle.format currently supports only 'static-spa'.",
    source: "L5734",
  },
  uiViewsCount: {
    text: "ui.views 数量必须在 1..16 之间",
    english: "ui.views must contain between 1 and 16 views.",
    source: "L5735",
  },
  uiViewsOneDefault: {
    text: "ui.views 中只能有一个 default=true",
    english: "At most one view in ui.views may have default=true.",
    source: "L5736",
  },
  viewDefaultSizeBelowMin: {
    text: "view '{name}' default_size 小于 min_size",
    english: "View '{name}': default_size is smaller than min_size.",
    source: "L5737",
  },
  hostApiToolsUndeclared: {
    text: "host_api.tools 引用未在 manifest 中声明的 tool_id: {ref}",
    english:
      "host_api.tools references a tool_id that is not declared in the manifest (required_executas / optional_executas): {ref}",
    source: "L5738",
  },
  cspDirectiveNotAllowed: {
    text: "csp_overrides 含不允许的 directive: {directives}",
    english:
      "csp_overrides contains directives that may not be overridden: {directives}. Allowed: connect-src, img-src, media-src, font-src, style-src, script-src.",
    source: "L5739",
  },
  cspScriptSrcValues: {
    text: "csp_overrides[{directive}] 仅允许 'self' / 'sha256-...' / 'nonce-...'",
    english: "csp_overrides[{directive}] allows only 'self', 'sha256-...' and 'nonce-...' sources.",
    source: "L5740 (quoted for script-src; style-src has the same rule, L5699)",
  },
  uiBundleEntryNotInFileMap: {
    text: "ui.bundle.entry '{path}' 未在上传的 file_map 中",
    english: "ui.bundle.entry '{path}' is not among the uploaded bundle files (file_map).",
    source: "L5741 (at bundle/finalize)",
  },
  submitReviewNeedsVersion: {
    text: "提交审核前需至少创建一个版本",
    english: "Create at least one version before submitting the app for review.",
    source: "L5261",
  },
  publishNeedsApproval: {
    text: "App 必须先通过审核（APPROVED）后才能发布版本",
    english: "The app must pass review (APPROVED) before a version can be published.",
    source: "L5289",
  },
  executaMissingToolId: {
    text: "⚠ skipping executa {name}: executa.json missing required `tool_id`",
    english:
      "The executa folder {name} is skipped by `anna-app dev`: its executa.json has no tool_id.",
    source: "L7408",
  },
  executaDuplicateToolId: {
    text: '⚠ skipping executa {name}: tool_id "{tool_id}" already provided by {other}',
    english:
      "The executa folder {name} is skipped: another folder ({other}) already provides tool_id {tool_id}; the first one wins.",
    source: "L11581",
  },
  bundledHandleNotFound: {
    text: '⚠ bundled handle "{handle}" → {path}: no executa discovered at that path',
    english:
      'app.json bundled_executas handle "{handle}" points at {path}, but no executa was discovered there.',
    source: "L7423",
  },
  executaSpecMissingToolId: {
    text: "--executa spec missing tool_id=",
    english: "An --executa spec with type= or command= must also give tool_id=.",
    source: "L11583",
  },
  noContentChanges: {
    text: "No content changes since the last published version",
    english: "Nothing changed since the last published version; there is nothing to freeze.",
    source: "L3322",
  },
} satisfies Record<string, SpecMessage>);

export type SpecMessageId = keyof typeof SPEC_MESSAGES;

/** Fills `{placeholders}`; unknown placeholders stay as they are. */
export function formatSpecMessage(
  id: SpecMessageId,
  params: Readonly<Record<string, string>> = {},
): { text: string; english: string } {
  const entry: SpecMessage = SPEC_MESSAGES[id];
  const fill = (template: string): string =>
    template.replace(/\{([a-z_]+)\}/g, (whole, key: string) => params[key] ?? whole);
  return { text: fill(entry.text), english: fill(entry.english) };
}
