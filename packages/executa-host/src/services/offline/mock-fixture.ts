// Mock-answer files for the offline services (`--mock-sampling`, `--mock-agent`, `--mock-storage`,
// `--mock-image`, `--mock-upload`, `--mock-llm`). One JSON object per line (spec L7580–7600):
//   {"ns":"llm","method":"complete","match":{"contentIncludes":"weather"},"result":{…}}
//   {"ns":"agent","method":"session.run","events":[{"payload":{"event":"token","text":"hi"}}]}
// `#` lines are comments, blank lines are skipped, the first matching entry wins, and a broken
// line is reported with its number. Real files write sampling entries both as
// `{ns:"sampling",method:"createMessage"}` and `{ns:"llm",method:"complete"}` (real-world-plugins.md).
import { readFile } from "node:fs/promises";
import { JsonSyntaxError, parseJsonDocument } from "@anna-ai/app-schema/json-document";

export interface MockError {
  code: number;
  message: string;
  data?: unknown;
}

export interface MockEntry {
  /** 1-based line in the file, for messages. */
  line: number;
  /** Canonical wire method, e.g. `sampling/createMessage`, `agent/session.run`. */
  method: string;
  match: Readonly<Record<string, unknown>>;
  result?: unknown;
  error?: MockError;
  events?: readonly unknown[];
}

export class MockFixtureError extends Error {
  readonly file: string;
  readonly line: number;
  /** 1-based column within the line, when the error is a JSON syntax error. */
  readonly column: number | undefined;

  constructor(
    file: string,
    line: number,
    message: string,
    options?: { cause?: unknown; column?: number },
  ) {
    const where = options?.column === undefined ? `${line}` : `${line}:${options.column}`;
    super(`${file}:${where}: ${message}`, options);
    this.name = "MockFixtureError";
    this.file = file;
    this.line = line;
    this.column = options?.column;
  }
}

/**
 * `ns` + `method` → the wire method the entry answers. Aliases from the app side (`llm.complete`)
 * answer the plugin-side method with the same meaning.
 */
const METHOD_ALIASES: Readonly<Record<string, string>> = {
  "llm/complete": "sampling/createMessage",
  "llm/createMessage": "sampling/createMessage",
  "sampling/complete": "sampling/createMessage",
  "llm/embed": "embeddings/create",
  "embeddings/embed": "embeddings/create",
  "upload/uploadFile": "host/uploadFile",
  "upload/inline": "host/uploadFile",
  "upload/negotiate": "host/uploadFile",
  "upload/confirm": "host/uploadFile",
};

export function canonicalMethod(ns: string | undefined, method: string): string {
  const full = ns === undefined || ns === "" || method.includes("/") ? method : `${ns}/${method}`;
  return METHOD_ALIASES[full] ?? full;
}

export class MockFixture {
  readonly file: string;
  readonly entries: readonly MockEntry[];

  private constructor(file: string, entries: MockEntry[]) {
    this.file = file;
    this.entries = entries;
  }

  static async load(file: string): Promise<MockFixture> {
    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new MockFixtureError(
        file,
        0,
        code === "ENOENT" ? "file not found" : `cannot read: ${String(error)}`,
        {
          cause: error,
        },
      );
    }
    return MockFixture.parse(text, file);
  }

  static parse(text: string, file = "<fixture>"): MockFixture {
    const entries: MockEntry[] = [];
    const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
    lines.forEach((raw, index) => {
      const lineNo = index + 1;
      const line = raw.trim();
      if (line === "" || line.startsWith("#") || line.startsWith("//")) return;
      let value: unknown;
      try {
        // The untrimmed line, so the column counts from the start of the line in the file.
        value = parseJsonDocument(raw).value;
      } catch (error) {
        const column = error instanceof JsonSyntaxError ? error.column : undefined;
        throw new MockFixtureError(file, lineNo, `not valid JSON (${(error as Error).message})`, {
          cause: error,
          column,
        });
      }
      entries.push(readEntry(value, file, lineNo));
    });
    return new MockFixture(file, entries);
  }

  /** The first entry for `method` whose match rules all hold for `params`. */
  find(method: string, params: unknown): MockEntry | undefined {
    const wanted = canonicalMethod(undefined, method);
    return this.entries.find((e) => e.method === wanted && matches(e.match, params));
  }

  /** Every entry for a method, in file order (e.g. to replay a list). */
  forMethod(method: string): MockEntry[] {
    const wanted = canonicalMethod(undefined, method);
    return this.entries.filter((e) => e.method === wanted);
  }
}

function readEntry(value: unknown, file: string, line: number): MockEntry {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new MockFixtureError(
      file,
      line,
      'each line must be a JSON object like {"ns":"llm","method":"complete","result":{…}}',
    );
  }
  const obj = value as Record<string, unknown>;
  if (typeof obj.method !== "string" || obj.method === "") {
    throw new MockFixtureError(
      file,
      line,
      'missing "method" (e.g. "method":"createMessage" with "ns":"sampling")',
    );
  }
  if (obj.ns !== undefined && typeof obj.ns !== "string") {
    throw new MockFixtureError(
      file,
      line,
      '"ns" must be a string such as "sampling", "llm", "agent", "storage"',
    );
  }
  const match = obj.match ?? {};
  if (match === null || typeof match !== "object" || Array.isArray(match)) {
    throw new MockFixtureError(
      file,
      line,
      '"match" must be an object such as {"contentIncludes":"weather"}',
    );
  }
  const answers = ["result", "error", "events"].filter((k) => obj[k] !== undefined);
  if (answers.length === 0) {
    throw new MockFixtureError(file, line, 'needs one of "result", "error" or "events"');
  }
  const method = canonicalMethod(obj.ns as string | undefined, obj.method);
  const entry: MockEntry = { line, method, match: withImpliedMatch(obj, method, match) };
  if (obj.result !== undefined) entry.result = obj.result;
  if (obj.error !== undefined) entry.error = readError(obj.error, file, line);
  if (obj.events !== undefined) {
    if (!Array.isArray(obj.events))
      throw new MockFixtureError(file, line, '"events" must be an array');
    entry.events = obj.events;
  }
  return entry;
}

/** `{ns:"upload", method:"inline"}` answers only inline uploads: the method names the mode. */
function withImpliedMatch(
  obj: Record<string, unknown>,
  method: string,
  match: object,
): Record<string, unknown> {
  const written = `${typeof obj.ns === "string" ? obj.ns + "/" : ""}${obj.method as string}`;
  const mode = /^upload\/(inline|negotiate|confirm)$/.exec(written)?.[1];
  if (method !== "host/uploadFile" || mode === undefined || "mode" in match) {
    return match as Record<string, unknown>;
  }
  return { ...match, mode };
}

function readError(value: unknown, file: string, line: number): MockError {
  const e = value as Record<string, unknown> | null;
  if (
    e === null ||
    typeof e !== "object" ||
    typeof e.code !== "number" ||
    typeof e.message !== "string"
  ) {
    throw new MockFixtureError(
      file,
      line,
      '"error" must be {"code": <number>, "message": "<text>", "data"?: …}',
    );
  }
  return { code: e.code, message: e.message, ...(e.data !== undefined ? { data: e.data } : {}) };
}

/**
 * The match language of every mock-answer file (docs/mocks.md):
 * - `contentIncludes` / `contentExcludes`: case-sensitive substring of the whole call payload
 *   (its text parts and its JSON).
 * - `<field>Includes` / `<field>Excludes` (`promptIncludes`, `query.textExcludes`): the same test
 *   on the request field at that (dotted) path only; a field that is absent includes nothing.
 * - Any other key: the param at that key (dotted paths allowed) must equal the value, or contain
 *   it when the value is an object (deep subset).
 * A substring rule takes a string or a list of strings: `Includes` holds when every one is
 * there, `Excludes` fails only when every one is.
 */
export function matches(match: Readonly<Record<string, unknown>>, params: unknown): boolean {
  for (const [key, expected] of Object.entries(match)) {
    const substring = SUBSTRING_KEY.exec(key);
    if (substring !== null) {
      const [, field = "", test] = substring;
      const needles = Array.isArray(expected) ? expected : [expected];
      const target = field === "content" ? params : lookup(params, field);
      const haystack = target === undefined ? "" : payloadText(target);
      const found = needles.every((n) => typeof n === "string" && haystack.includes(n));
      if (test === "Includes" ? !found : found) return false;
      continue;
    }
    if (!subset(expected, lookup(params, key))) return false;
  }
  return true;
}

/** `promptIncludes` → field `prompt`, test `Includes`; `contentIncludes` is the whole payload. */
const SUBSTRING_KEY = /^(.+?)(Includes|Excludes)$/;

function payloadText(params: unknown): string {
  const texts: string[] = [];
  const walk = (v: unknown) => {
    if (typeof v === "string") texts.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === "object") Object.values(v).forEach(walk);
  };
  walk(params);
  return texts.join("\n") + "\n" + JSON.stringify(params ?? null);
}

function lookup(value: unknown, dotted: string): unknown {
  let current = value;
  for (const part of dotted.split(".")) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

function subset(expected: unknown, actual: unknown): boolean {
  if (expected === null || typeof expected !== "object") return Object.is(expected, actual);
  if (actual === null || typeof actual !== "object") return false;
  if (Array.isArray(expected)) {
    return (
      Array.isArray(actual) &&
      expected.length === actual.length &&
      expected.every((e, i) => subset(e, actual[i]))
    );
  }
  return Object.entries(expected).every(([k, v]) =>
    subset(v, (actual as Record<string, unknown>)[k]),
  );
}
