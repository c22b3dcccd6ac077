// The `--strict` grep (L4669): find the Host API calls a bundle makes, so each can be checked
// against `ui.host_api`. It is a heuristic over text, not a parser, because bundles are often
// minified or built by tools we do not know:
//
//  - The receiver is ignored: the SDK object is `anna` in the docs, `rt`/`runtime`/`app` in
//    real apps and `e`/`t` once minified, so `<anything>.storage.get(` counts, as does a bare
//    `storage.get(` (a destructured namespace).
//  - `.` and `?.` are both accepted between the parts and before the call parenthesis:
//    `anna?.storage.get(`, `rt.chat?.write_message?.(`.
//  - Only real (namespace, method) pairs of the Host API table count, so `x.files.forEach(` or
//    `localStorage.getItem(` are not calls. The camel-case spellings the dispatcher routes
//    (`web.imageSearch`) map to their method.
//  - The generic form `.call("storage", "set", …)` counts too.
//  - Text inside comments and strings is not told apart from code.
import {
  HOST_API_METHOD_SPELLINGS,
  HOST_API_METHODS,
  isHostApiNamespace,
} from "@anna-ai/app-schema";

export interface HostApiCall {
  readonly namespace: string;
  /** The table's method name (`image_search` for a call written `imageSearch`). */
  readonly method: string;
  /** Offset of the namespace word in the text. */
  readonly offset: number;
}

/** SDK-side agent helpers (Z31) that need a `host_api.agent` session submode. */
export const AGENT_SDK_METHODS = Object.freeze([
  "session",
  "run",
  "refresh",
  "list",
  "cancel",
  "history",
  "delete",
  "create",
] as const);

const IDENT = "[A-Za-z_$][\\w$]*";
const DOT = "\\s*\\??\\.\\s*";
const NAMESPACES = Object.keys(HOST_API_METHODS).filter((ns) => ns !== "window");
// `(?<![\w$])` keeps `sessionStorage.get(` or `mystorage.get(` out.
const CALL_PATTERN = new RegExp(
  `(?<![\\w$])(${NAMESPACES.join("|")})${DOT}(${IDENT}(?:${DOT}${IDENT})?)\\s*(?:\\?\\.\\s*)?\\(`,
  "g",
);
const GENERIC_PATTERN = new RegExp(
  `\\.call\\(\\s*(["'\`])(${NAMESPACES.join("|")})\\1\\s*,\\s*(["'\`])(${IDENT}(?:\\.${IDENT})?)\\3`,
  "g",
);

/** The table method a written name stands for, or undefined when it is not one. */
export function canonicalMethod(namespace: string, written: string): string | undefined {
  if (!isHostApiNamespace(namespace)) return undefined;
  const compact = written.replace(/\s*\??\.\s*/g, ".");
  const methods: readonly string[] = HOST_API_METHODS[namespace];
  if (methods.includes(compact)) return compact;
  const spelled = HOST_API_METHOD_SPELLINGS[`${namespace}.${compact}`];
  if (spelled !== undefined) return spelled;
  if (namespace === "agent") {
    // `agent.session.create(` is in the table; the SDK's `agent.session(` / `agent.run(` are not.
    const head = compact.split(".")[0] ?? "";
    if ((AGENT_SDK_METHODS as readonly string[]).includes(head)) {
      return methods.includes(`session.${head}`) ? `session.${head}` : "session.create";
    }
    return undefined;
  }
  // `storage.get.bind(` → `get`: the second segment belonged to something else.
  const first = compact.split(".")[0] ?? "";
  return compact.includes(".") && methods.includes(first) ? first : undefined;
}

/** Every Host API call the text appears to make, in order of appearance. */
export function findHostApiCalls(text: string): HostApiCall[] {
  const out: HostApiCall[] = [];
  for (const match of text.matchAll(CALL_PATTERN)) {
    const namespace = match[1] as string;
    const method = canonicalMethod(namespace, match[2] as string);
    if (method !== undefined) out.push({ namespace, method, offset: match.index });
  }
  for (const match of text.matchAll(GENERIC_PATTERN)) {
    const namespace = match[2] as string;
    const method = canonicalMethod(namespace, match[4] as string);
    if (method !== undefined) {
      out.push({ namespace, method, offset: match.index + match[0].indexOf(namespace) });
    }
  }
  return out.sort((a, b) => a.offset - b.offset);
}

/** 1-based line and column of `offset` (computed only for the few calls reported). */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}
