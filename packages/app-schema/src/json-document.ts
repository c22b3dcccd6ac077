// A small JSON parser that remembers where every value is, so each validator message can name
// the line and column of the offending value (single-line, key-sorted manifests included).
// It tolerates a UTF-8 BOM, records duplicate keys (the last one wins, as in JSON.parse and
// Python's json.loads, which the platform uses), and reports malformed input with line:column.
// Iterative limits keep hostile input (deep nesting, 10 MB files) from crashing the CLI.

/** Deeper nesting than this is refused instead of risking the call stack. */
export const JSON_MAX_DEPTH = 256;

export interface JsonPosition {
  /** 1-based. */
  readonly line: number;
  /** 1-based, in UTF-16 code units of the line (what editors show for BMP text). */
  readonly column: number;
}

/** Where a value sits in the text: offsets of its first character and one past its last. */
export interface JsonSpan {
  readonly start: number;
  readonly end: number;
  /** For object members: offset of the key's opening quote. */
  readonly keyStart?: number;
}

export interface DuplicateKey {
  /** Pointer of the member; the later occurrence is the one that counts. */
  readonly pointer: string;
  readonly key: string;
  readonly firstOffset: number;
  readonly offset: number;
}

export class JsonSyntaxError extends SyntaxError {
  readonly offset: number;
  readonly line: number;
  readonly column: number;

  constructor(message: string, offset: number, position: JsonPosition) {
    super(message);
    this.name = "JsonSyntaxError";
    this.offset = offset;
    this.line = position.line;
    this.column = position.column;
  }
}

export class JsonDocument {
  /** The text without its BOM; offsets and positions refer to it. */
  readonly text: string;
  readonly hadBom: boolean;
  readonly value: unknown;
  readonly duplicateKeys: readonly DuplicateKey[];
  private readonly spans: Map<string, JsonSpan>;
  private readonly lineStarts: number[];

  constructor(init: {
    text: string;
    hadBom: boolean;
    value: unknown;
    spans: Map<string, JsonSpan>;
    duplicateKeys: DuplicateKey[];
    lineStarts: number[];
  }) {
    this.text = init.text;
    this.hadBom = init.hadBom;
    this.value = init.value;
    this.spans = init.spans;
    this.duplicateKeys = init.duplicateKeys;
    this.lineStarts = init.lineStarts;
  }

  span(pointer: string): JsonSpan | undefined {
    return this.spans.get(pointer);
  }

  /**
   * The position of the value at `pointer`, or of its nearest ancestor that exists (a missing
   * field is reported where its parent object starts). For members, the key's position.
   */
  positionOf(pointer: string): JsonPosition {
    let current = pointer;
    for (;;) {
      const span = this.spans.get(current);
      if (span !== undefined) return this.position(span.keyStart ?? span.start);
      if (current === "") return { line: 1, column: 1 };
      current = current.slice(0, current.lastIndexOf("/"));
    }
  }

  /** The pointer itself exists in the document (not just an ancestor). */
  has(pointer: string): boolean {
    return this.spans.has(pointer);
  }

  position(offset: number): JsonPosition {
    return positionIn(this.lineStarts, offset);
  }
}

function positionIn(lineStarts: readonly number[], offset: number): JsonPosition {
  let lo = 0;
  let hi = lineStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((lineStarts[mid] as number) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, column: offset - (lineStarts[lo] as number) + 1 };
}

function computeLineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) starts.push(i + 1);
    else if (c === 13) {
      if (text.charCodeAt(i + 1) === 10) i++;
      starts.push(i + 1);
    }
  }
  return starts;
}

/** RFC 6901 escaping of one reference token. */
export function escapePointerToken(token: string): string {
  return token.includes("~") || token.includes("/")
    ? token.replaceAll("~", "~0").replaceAll("/", "~1")
    : token;
}

const BOM = 0xfeff;

/** Parses JSON text (a leading BOM is dropped). Throws `JsonSyntaxError` with line:column. */
export function parseJsonDocument(input: string): JsonDocument {
  const hadBom = input.charCodeAt(0) === BOM;
  const text = hadBom ? input.slice(1) : input;
  const lineStarts = computeLineStarts(text);
  const parser = new Parser(text, lineStarts);
  const value = parser.parseDocument();
  return new JsonDocument({
    text,
    hadBom,
    value,
    spans: parser.spans,
    duplicateKeys: parser.duplicates,
    lineStarts,
  });
}

const ESCAPES: Record<string, string> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};

function describeChar(ch: string): string {
  const code = ch.charCodeAt(0);
  const hex = `U+${code.toString(16).padStart(4, "0").toUpperCase()}`;
  if (code < 0x20 || code === 0x7f) return `control character ${hex}`;
  // Invisible in an editor: a non-breaking or other Unicode space, a zero-width character, a BOM.
  if (code > 0x7f && /[\s\u200b-\u200f\u2060\ufeff]/.test(ch)) return `invisible character ${hex}`;
  return `'${ch}'`;
}

class Parser {
  readonly spans = new Map<string, JsonSpan>();
  readonly duplicates: DuplicateKey[] = [];
  private i = 0;

  constructor(
    private readonly text: string,
    private readonly lineStarts: number[],
  ) {}

  parseDocument(): unknown {
    this.skipSpace();
    if (this.i >= this.text.length) {
      throw this.error("the file is empty: expected a JSON value such as {}", this.i);
    }
    const value = this.parseValue("", 0, undefined);
    this.skipSpace();
    if (this.i < this.text.length) {
      throw this.error(
        `unexpected ${describeChar(this.text[this.i] as string)} after the end of the JSON value: a file holds exactly one value`,
        this.i,
      );
    }
    return value;
  }

  private error(message: string, offset: number): JsonSyntaxError {
    const at = Math.min(offset, this.text.length);
    return new JsonSyntaxError(message, at, positionIn(this.lineStarts, at));
  }

  private skipSpace(): void {
    const text = this.text;
    for (;;) {
      const c = text.charCodeAt(this.i);
      if (c === 32 || c === 10 || c === 13 || c === 9) {
        this.i++;
        continue;
      }
      if (c === 47 /* / */) {
        const next = text[this.i + 1];
        if (next === "/" || next === "*") {
          throw this.error("comments are not allowed in JSON: remove them", this.i);
        }
      }
      return;
    }
  }

  private parseValue(pointer: string, depth: number, keyStart: number | undefined): unknown {
    const start = this.i;
    const ch = this.text[this.i];
    let value: unknown;
    switch (ch) {
      case "{":
        value = this.parseObject(pointer, depth + 1);
        break;
      case "[":
        value = this.parseArray(pointer, depth + 1);
        break;
      case '"':
        value = this.parseString();
        break;
      case "t":
        value = this.parseLiteral("true", true);
        break;
      case "f":
        value = this.parseLiteral("false", false);
        break;
      case "n":
        value = this.parseLiteral("null", null);
        break;
      case undefined:
        throw this.error("unexpected end of file: expected a value", this.i);
      default:
        if (ch === "-" || (ch >= "0" && ch <= "9")) value = this.parseNumber();
        else if (ch === "'") {
          throw this.error('strings must use double quotes ("…"), not single quotes', this.i);
        } else if (ch === "}" || ch === "]") {
          throw this.error(`unexpected '${ch}': expected a value`, this.i);
        } else {
          throw this.error(
            `unexpected ${describeChar(ch)}: expected a value (object, array, string, number, true, false or null)`,
            this.i,
          );
        }
    }
    this.spans.set(
      pointer,
      keyStart === undefined ? { start, end: this.i } : { start, end: this.i, keyStart },
    );
    return value;
  }

  private parseLiteral(word: string, value: unknown): unknown {
    if (this.text.startsWith(word, this.i)) {
      this.i += word.length;
      return value;
    }
    let end = this.i;
    while (end < this.text.length && /[A-Za-z0-9_]/.test(this.text[end] as string)) end++;
    const got = this.text.slice(this.i, Math.max(end, this.i + 1));
    throw this.error(
      `unexpected '${got.slice(0, 20)}': expected a value (strings need double quotes)`,
      this.i,
    );
  }

  private parseNumber(): number {
    const text = this.text;
    const start = this.i;
    const bad = (): JsonSyntaxError =>
      this.error(`invalid number '${text.slice(start, this.i + 1)}'`, start);
    if (text[this.i] === "-") this.i++;
    if (text[this.i] === "0") {
      this.i++;
      if (text[this.i] !== undefined && text[this.i]! >= "0" && text[this.i]! <= "9") {
        throw this.error("numbers must not have leading zeros", start);
      }
    } else if (text[this.i] !== undefined && text[this.i]! >= "1" && text[this.i]! <= "9") {
      while (text[this.i] !== undefined && text[this.i]! >= "0" && text[this.i]! <= "9") this.i++;
    } else throw bad();
    if (text[this.i] === ".") {
      this.i++;
      const digits = this.i;
      while (text[this.i] !== undefined && text[this.i]! >= "0" && text[this.i]! <= "9") this.i++;
      if (this.i === digits) throw bad();
    }
    if (text[this.i] === "e" || text[this.i] === "E") {
      this.i++;
      if (text[this.i] === "+" || text[this.i] === "-") this.i++;
      const digits = this.i;
      while (text[this.i] !== undefined && text[this.i]! >= "0" && text[this.i]! <= "9") this.i++;
      if (this.i === digits) throw bad();
    }
    return Number(text.slice(start, this.i));
  }

  private parseString(): string {
    const text = this.text;
    const start = this.i;
    this.i++;
    let out = "";
    let chunk = this.i;
    for (;;) {
      const c = text.charCodeAt(this.i);
      if (Number.isNaN(c)) throw this.error("unterminated string: missing closing '\"'", start);
      if (c === 34 /* " */) {
        out += text.slice(chunk, this.i);
        this.i++;
        return out;
      }
      if (c === 92 /* \ */) {
        out += text.slice(chunk, this.i);
        const esc = text[this.i + 1];
        if (esc === "u") {
          const hex = text.slice(this.i + 2, this.i + 6);
          if (!/^[0-9A-Fa-f]{4}$/.test(hex)) {
            throw this.error("invalid \\u escape: expected four hex digits", this.i);
          }
          out += String.fromCharCode(parseInt(hex, 16));
          this.i += 6;
        } else {
          const decoded = esc === undefined ? undefined : ESCAPES[esc];
          if (decoded === undefined) {
            throw this.error(`invalid escape '\\${esc ?? ""}' in a string`, this.i);
          }
          out += decoded;
          this.i += 2;
        }
        chunk = this.i;
        continue;
      }
      if (c < 0x20) {
        throw this.error(
          c === 10 || c === 13
            ? "unterminated string: a line break inside a string must be written \\n"
            : `${describeChar(text[this.i] as string)} inside a string must be escaped`,
          c === 10 || c === 13 ? start : this.i,
        );
      }
      this.i++;
    }
  }

  private parseObject(pointer: string, depth: number): Record<string, unknown> {
    if (depth > JSON_MAX_DEPTH) {
      throw this.error(`nested deeper than ${JSON_MAX_DEPTH} levels`, this.i);
    }
    const open = this.i;
    this.i++;
    // A null-prototype object would surprise callers; own properties via defineProperty keep
    // "__proto__" a plain key instead of changing the prototype.
    const out: Record<string, unknown> = {};
    const seen = new Map<string, number>();
    this.skipSpace();
    if (this.text[this.i] === "}") {
      this.i++;
      return out;
    }
    for (;;) {
      this.skipSpace();
      const keyStart = this.i;
      const ch = this.text[this.i];
      if (ch !== '"') {
        if (ch === undefined) throw this.error("unexpected end of file: missing '}'", open);
        if (ch === "}")
          throw this.error("trailing comma before '}' is not allowed in JSON", this.i);
        throw this.error(
          ch === "'"
            ? "keys must use double quotes, not single quotes"
            : `unexpected ${describeChar(ch)}: expected a key in double quotes`,
          this.i,
        );
      }
      const key = this.parseString();
      this.skipSpace();
      if (this.text[this.i] !== ":") {
        throw this.error(`expected ':' after the key "${key.slice(0, 40)}"`, this.i);
      }
      this.i++;
      this.skipSpace();
      const childPointer = `${pointer}/${escapePointerToken(key)}`;
      const value = this.parseValue(childPointer, depth, keyStart);
      const first = seen.get(key);
      if (first !== undefined) {
        this.duplicates.push({ pointer: childPointer, key, firstOffset: first, offset: keyStart });
      } else seen.set(key, keyStart);
      Object.defineProperty(out, key, {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
      this.skipSpace();
      const next = this.text[this.i];
      if (next === ",") {
        this.i++;
        continue;
      }
      if (next === "}") {
        this.i++;
        return out;
      }
      if (next === undefined) throw this.error("unexpected end of file: missing '}'", open);
      throw this.error(
        next === '"'
          ? "missing ',' between object members"
          : `unexpected ${describeChar(next)}: expected ',' or '}'`,
        this.i,
      );
    }
  }

  private parseArray(pointer: string, depth: number): unknown[] {
    if (depth > JSON_MAX_DEPTH) {
      throw this.error(`nested deeper than ${JSON_MAX_DEPTH} levels`, this.i);
    }
    const open = this.i;
    this.i++;
    const out: unknown[] = [];
    this.skipSpace();
    if (this.text[this.i] === "]") {
      this.i++;
      return out;
    }
    for (;;) {
      this.skipSpace();
      if (this.text[this.i] === "]") {
        throw this.error("trailing comma before ']' is not allowed in JSON", this.i);
      }
      if (this.text[this.i] === undefined) {
        throw this.error("unexpected end of file: missing ']'", open);
      }
      out.push(this.parseValue(`${pointer}/${out.length}`, depth, undefined));
      this.skipSpace();
      const next = this.text[this.i];
      if (next === ",") {
        this.i++;
        continue;
      }
      if (next === "]") {
        this.i++;
        return out;
      }
      if (next === undefined) throw this.error("unexpected end of file: missing ']'", open);
      throw this.error(`unexpected ${describeChar(next)}: expected ',' or ']'`, this.i);
    }
  }
}
