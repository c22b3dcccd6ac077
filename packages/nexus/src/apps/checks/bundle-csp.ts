// The bundle read against the policy it will be served with (app-schema's buildBundleCsp, the
// one the serving route sends) and the frame's sandbox: what would be blocked at run time, and
// what tries to get around the policy. Blocked code is a broken app, not an attack, so most
// findings are warnings; a page's own `<meta>` policy that asks for more than the header allows
// is reported as an error, since it means the author expects something the platform forbids.
import { createHash } from "node:crypto";
import { buildBundleCsp } from "@anna-ai/app-schema";
import type { PreReviewCheck, PreReviewInput, ReviewFinding } from "../pre-review.js";
import { type BundleFile, isHtml, isScript, lineAt, manifestOf, textFiles } from "./bundle-text.js";

const CHECK = "bundle-csp";

/** The policy the bundle is served with, the SDK origin left out (the platform adds its own). */
function servedPolicy(input: PreReviewInput): Record<string, string[]> {
  const ui = (manifestOf(input).ui ?? {}) as {
    csp_overrides?: Record<string, string[]> | null;
    bundle?: { external_origins?: string[] | null };
  };
  let origins: unknown = ui.bundle?.external_origins ?? [];
  if (input.bundle !== null) {
    try {
      origins = JSON.parse(input.bundle.row.external_origins) as unknown;
    } catch {
      // The manifest's copy, then.
    }
  }
  return buildBundleCsp(
    ui.csp_overrides ?? undefined,
    Array.isArray(origins) ? origins.filter((o): o is string => typeof o === "string") : [],
  );
}

/** Whether `url` (absolute http(s)/ws(s)) is allowed by a directive's source list. */
function allowedBy(sources: readonly string[], url: string): boolean {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return false;
  }
  return sources.some((source) => {
    if (source === "*") return true;
    if (/^[a-z][a-z0-9+.-]*:$/i.test(source)) return target.protocol === source.toLowerCase();
    const m = /^(?:([a-z][a-z0-9+.-]*):\/\/)?(\*\.)?([^/:]+)(?::(\d+|\*))?/i.exec(source);
    if (m === null || source.startsWith("'")) return false;
    const [, scheme, wildcard, host = "", port] = m;
    if (scheme !== undefined && `${scheme.toLowerCase()}:` !== target.protocol) return false;
    const hostname = target.hostname.toLowerCase();
    const want = host.toLowerCase();
    const hostOk = wildcard ? hostname.endsWith(`.${want}`) : hostname === want;
    const portOk = port === undefined || port === "*" || target.port === port;
    return hostOk && portOk;
  });
}

const INLINE_SCRIPT = /<script\b((?:[^>"']|"[^"]*"|'[^']*')*)>([\s\S]*?)<\/script\s*>/gi;
const SCRIPT_SRC = /<script\b[^>]*\bsrc\s*=\s*["']?((?:https?:)?\/\/[^"'\s>]+)/gi;
const STYLESHEET =
  /<link\b(?=[^>]*\brel\s*=\s*["']?stylesheet)[^>]*\bhref\s*=\s*["']?((?:https?:)?\/\/[^"'\s>]+)/gi;
const META_CSP = /<meta\b[^>]*http-equiv\s*=\s*["']?content-security-policy["']?[^>]*>/gi;
const INLINE_HANDLER = /<[a-z][^>]*\son[a-z]+\s*=\s*["'][^"']/gi;
const JS_URL = /\b(?:href|src|action)\s*=\s*["']\s*javascript:/gi;
const EVAL = /(?<![.\w$])(?:eval\s*\(|new\s+Function\s*\(|set(?:Timeout|Interval)\s*\(\s*["'`])/g;
const REMOTE_IMPORT =
  /\b(?:import\s*\(\s*|import\b[^'"();]*?\bfrom\s*|import\s*)["'`]((?:https?:)?\/\/[^"'`\s]+)["'`]/g;
const REMOTE_CONNECT =
  /\b(?:fetch\s*\(|new\s+(?:WebSocket|EventSource)\s*\()\s*["'`]((?:https?|wss?):\/\/[^"'`\s/]+)/g;
/** What an opaque origin (no allow-same-origin) throws on, and what no sandbox token allows. */
const SANDBOXED: readonly { pattern: RegExp; what: string; instead: string }[] = [
  {
    pattern: /\b(?:window\.)?(?:localStorage|sessionStorage|indexedDB)\b/g,
    what: "browser storage (localStorage, sessionStorage, indexedDB), which throws in the sandboxed frame",
    instead: "use the storage.* Host API",
  },
  {
    pattern: /\bdocument\.cookie\b/g,
    what: "document.cookie, which throws in the sandboxed frame",
    instead: "use the storage.* Host API",
  },
  {
    pattern: /\b(?:window\.)?(?:top|parent)\.location\s*(?:\.href\s*)?=(?!=)/g,
    what: "navigation of the parent page, which the sandbox blocks",
    instead: "open links with window.open or the window.* Host API",
  },
];

function inlineScriptAllowed(body: string, scriptSrc: readonly string[]): boolean {
  const hash = `'sha256-${createHash("sha256").update(body, "utf8").digest("base64")}'`;
  return scriptSrc.includes(hash) || scriptSrc.includes("'unsafe-inline'");
}

function finding(
  file: BundleFile,
  text: string,
  index: number,
  severity: ReviewFinding["severity"],
  what: string,
): ReviewFinding {
  const where = `${file.relative_path} line ${lineAt(text, index)}`;
  return { check: CHECK, severity, path: file.relative_path, message: `${where}: ${what}` };
}

/** One finding for every match of `pattern` in the file: the first line, and how many there are. */
function firstMatch(
  file: BundleFile,
  text: string,
  pattern: RegExp,
  severity: ReviewFinding["severity"],
  what: string,
): ReviewFinding[] {
  const matches = [...text.matchAll(pattern)];
  if (matches.length === 0) return [];
  const more = matches.length > 1 ? ` (${matches.length} places, the first shown)` : "";
  return [finding(file, text, matches[0]!.index, severity, `${what}${more}`)];
}

/**
 * One finding per absolute URL that `pattern` captures (group 1; `//host` as https) and the
 * directive's sources do not allow, naming its origin only.
 */
function blockedLoads(
  file: BundleFile,
  text: string,
  pattern: RegExp,
  sources: readonly string[],
  severity: ReviewFinding["severity"],
  what: (origin: string) => string,
): ReviewFinding[] {
  const out: ReviewFinding[] = [];
  for (const m of text.matchAll(pattern)) {
    const url = m[1]!.startsWith("//") ? `https:${m[1]}` : m[1]!;
    if (allowedBy(sources, url)) continue;
    out.push(
      finding(file, text, m.index, severity, what(URL.canParse(url) ? new URL(url).origin : url)),
    );
  }
  return out;
}

function auditHtml(file: BundleFile, text: string, csp: Record<string, string[]>): ReviewFinding[] {
  const out: ReviewFinding[] = [];
  const scriptSrc = csp["script-src"] ?? [];
  for (const m of text.matchAll(INLINE_SCRIPT)) {
    const [, attrs = "", body = ""] = m;
    if (/\bsrc\s*=/i.test(attrs) || body.trim() === "") continue;
    if (/\btype\s*=\s*["']?(?:application\/(?:ld\+)?json|importmap|text\/template)/i.test(attrs))
      continue;
    if (!inlineScriptAllowed(body, scriptSrc)) {
      out.push(
        finding(
          file,
          text,
          m.index,
          "warning",
          "an inline <script> that the CSP blocks (script-src has no hash for it): move it into a .js file of the bundle, or add its 'sha256-…' to ui.csp_overrides.script-src",
        ),
      );
    }
  }
  out.push(
    ...blockedLoads(
      file,
      text,
      SCRIPT_SRC,
      scriptSrc,
      "error",
      (origin) =>
        `a script from ${origin}, which the CSP blocks (script-src allows only the bundle and the SDK): bundle the library instead`,
    ),
    ...blockedLoads(
      file,
      text,
      STYLESHEET,
      csp["style-src"] ?? [],
      "warning",
      (origin) =>
        `a stylesheet from ${origin}, which the CSP blocks: bundle it (style-src overrides may only be 'self', hashes or nonces)`,
    ),
  );
  for (const m of text.matchAll(META_CSP)) {
    const content = /\bcontent\s*=\s*(?:"([^"]*)"|'([^']*)')/i.exec(m[0]);
    const policy = content?.[1] ?? content?.[2] ?? "";
    const loosens =
      /'unsafe-(?:inline|eval|hashes)'|(?:^|[\s;])\*(?:[\s;]|$)|\b(?:https?|data|blob):?(?=[\s;]|$)|https?:\/\//i.test(
        policy,
      );
    out.push(
      finding(
        file,
        text,
        m.index,
        loosens ? "error" : "info",
        loosens
          ? "a <meta http-equiv=Content-Security-Policy> that asks for more than the served policy allows (unsafe-*, wildcards or remote sources); a page cannot loosen the header's policy, so what it relies on is blocked: remove the tag and use ui.csp_overrides / ui.bundle.external_origins"
          : "a <meta http-equiv=Content-Security-Policy>; it can only narrow the served policy",
      ),
    );
  }
  out.push(
    ...firstMatch(
      file,
      text,
      INLINE_HANDLER,
      "warning",
      "an inline event handler (on…=), which the CSP blocks: attach it with addEventListener in a script file",
    ),
    ...firstMatch(file, text, JS_URL, "warning", "a javascript: URL, which the CSP blocks"),
  );
  return out;
}

function auditScript(
  file: BundleFile,
  text: string,
  csp: Record<string, string[]>,
): ReviewFinding[] {
  const out: ReviewFinding[] = [];
  out.push(
    ...firstMatch(
      file,
      text,
      EVAL,
      "warning",
      "eval / new Function / a string timer, which the CSP blocks (no 'unsafe-eval'): the call throws at run time",
    ),
  );
  out.push(
    ...blockedLoads(
      file,
      text,
      REMOTE_IMPORT,
      csp["script-src"] ?? [],
      "error",
      (origin) => `an import from ${origin}, which the CSP blocks: bundle the module instead`,
    ),
    ...blockedLoads(
      file,
      text,
      REMOTE_CONNECT,
      csp["connect-src"] ?? [],
      "warning",
      (origin) =>
        `a request to ${origin}, which connect-src blocks: add the origin to ui.bundle.external_origins (reviewers see it) or call it from an executa`,
    ),
  );
  return out;
}

export const bundleCspCheck: PreReviewCheck = {
  id: CHECK,
  async run(input) {
    const csp = servedPolicy(input);
    const findings: ReviewFinding[] = [];
    const skipped = (f: BundleFile) =>
      findings.push({
        check: CHECK,
        severity: "info",
        path: f.relative_path,
        message: `${f.relative_path} (${f.byte_size} bytes) is too large to audit; check it by hand`,
      });
    for await (const { file, text } of textFiles(input, (f) => isHtml(f) || isScript(f), skipped)) {
      if (isHtml(file)) findings.push(...auditHtml(file, text, csp));
      else findings.push(...auditScript(file, text, csp));
      for (const { pattern, what, instead } of SANDBOXED) {
        findings.push(...firstMatch(file, text, pattern, "warning", `${what}: ${instead}`));
      }
    }
    return findings;
  },
};
