// What the layers share: the project's paths, the JSON files read so far (with positions), and
// the findings, each placed at a line:column from its JSON pointer.
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import type { Diagnostic, Severity, SourceLocation, ValidateLayer } from "./diagnostic.js";
import type { FixAction } from "./fix.js";
import type { JsonDocument } from "./json-document.js";
import { JsonSyntaxError, parseJsonDocument } from "./json-document.js";
import { relativePath } from "./walk.js";

/**
 * A manifest, app.json or executa.json is a few KB; past this the file is refused with a
 * message rather than parsed (a 10 MB "manifest" is a mistake, and parsing it would only
 * produce a wall of findings).
 */
export const JSON_FILE_MAX_BYTES = 2 * 1024 * 1024;

export interface ProjectPaths {
  /** The project folder: app.json, executas/ and skills are looked up here. */
  readonly root: string;
  readonly manifest: string;
  readonly bundle: string;
  /** True when --bundle was given (a missing folder is then an error, not a warning). */
  readonly bundleExplicit: boolean;
}

export interface Finding {
  readonly severity: Severity;
  readonly code: string;
  readonly message: string;
  readonly specMessage?: string;
  readonly related?: readonly SourceLocation[];
}

export class ValidateContext {
  readonly diagnostics: Diagnostic[] = [];
  /** Safe repairs found along the way; applied only with --fix. */
  readonly fixes: FixAction[] = [];
  private readonly documents = new Map<string, JsonDocument>();

  constructor(readonly paths: ProjectPaths) {}

  rel(absolute: string): string {
    return relativePath(this.paths.root, absolute);
  }

  document(absolute: string): JsonDocument | undefined {
    return this.documents.get(path.resolve(absolute));
  }

  /** Records a finding at `pointer` of a JSON file read through `readJson` (or the file start). */
  report(layer: ValidateLayer, absolute: string, pointer: string, finding: Finding): void {
    const doc = this.document(absolute);
    const position = doc ? doc.positionOf(pointer) : { line: 1, column: 1 };
    this.add(layer, absolute, pointer, position, finding);
  }

  /** Records a finding at an explicit position (non-JSON files, syntax errors). */
  reportAt(
    layer: ValidateLayer,
    absolute: string,
    position: { line: number; column: number },
    finding: Finding,
    pointer = "",
  ): void {
    this.add(layer, absolute, pointer, position, finding);
  }

  private add(
    layer: ValidateLayer,
    absolute: string,
    pointer: string,
    position: { line: number; column: number },
    finding: Finding,
  ): void {
    this.diagnostics.push({
      severity: finding.severity,
      layer,
      code: finding.code,
      file: this.rel(absolute),
      pointer,
      line: position.line,
      column: position.column,
      message: finding.message,
      ...(finding.specMessage === undefined ? {} : { specMessage: finding.specMessage }),
      ...(finding.related === undefined || finding.related.length === 0
        ? {}
        : { related: finding.related }),
    });
  }

  hasErrors(layers?: readonly ValidateLayer[]): boolean {
    return this.diagnostics.some(
      (d) => d.severity === "error" && (layers === undefined || layers.includes(d.layer)),
    );
  }

  /**
   * Parses a JSON file only to place findings in it (another part already reports its syntax);
   * `undefined` when it cannot be read or parsed.
   */
  async locateIn(absolute: string): Promise<JsonDocument | undefined> {
    const resolved = path.resolve(absolute);
    const cached = this.documents.get(resolved);
    if (cached) return cached;
    try {
      if ((await stat(resolved)).size > JSON_FILE_MAX_BYTES) return undefined;
      const doc = parseJsonDocument(await readFile(resolved, "utf8"));
      this.documents.set(resolved, doc);
      return doc;
    } catch {
      return undefined;
    }
  }

  /**
   * Reads and parses a JSON file, reporting a missing file (when `required`), oversize input,
   * malformed JSON (with line:column) and duplicate keys. `undefined` when there is no value.
   */
  async readJson(
    absolute: string,
    options: { layer: ValidateLayer; required: boolean; what: string },
  ): Promise<JsonDocument | undefined> {
    const resolved = path.resolve(absolute);
    const cached = this.documents.get(resolved);
    if (cached) return cached;
    let size: number;
    try {
      const info = await stat(resolved);
      if (!info.isFile()) {
        this.reportAt(
          options.layer,
          resolved,
          { line: 0, column: 0 },
          {
            severity: "error",
            code: "file.not_a_file",
            message: `${this.rel(resolved)} is a folder, not ${options.what}`,
          },
        );
        return undefined;
      }
      size = info.size;
    } catch {
      if (options.required) {
        this.reportAt(
          options.layer,
          resolved,
          { line: 0, column: 0 },
          {
            severity: "error",
            code: "file.missing",
            message: `${this.rel(resolved)} does not exist: ${options.what} is needed here`,
          },
        );
      }
      return undefined;
    }
    if (size > JSON_FILE_MAX_BYTES) {
      this.reportAt(
        options.layer,
        resolved,
        { line: 1, column: 1 },
        {
          severity: "error",
          code: "json.too_large",
          message: `${this.rel(resolved)} is ${formatBytes(size)}, more than the ${formatBytes(JSON_FILE_MAX_BYTES)} ${options.what} may reasonably be; it was not parsed — check that this is the right file`,
        },
      );
      return undefined;
    }
    let bytes: Buffer;
    try {
      bytes = await readFile(resolved);
    } catch (error) {
      this.reportAt(
        options.layer,
        resolved,
        { line: 0, column: 0 },
        {
          severity: "error",
          code: "file.unreadable",
          message: `${this.rel(resolved)} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)}); check its permissions`,
        },
      );
      return undefined;
    }
    const text = bytes.toString("utf8");
    if (text.includes("\uFFFD") && !isValidUtf8(bytes)) {
      this.reportAt(
        options.layer,
        resolved,
        { line: 1, column: 1 },
        {
          severity: "error",
          code: "json.encoding",
          message: `${this.rel(resolved)} is not UTF-8 text; save it as UTF-8`,
        },
      );
      return undefined;
    }
    let doc: JsonDocument;
    try {
      doc = parseJsonDocument(text);
    } catch (error) {
      if (!(error instanceof JsonSyntaxError)) throw error;
      this.reportAt(options.layer, resolved, error, {
        severity: "error",
        code: "json.syntax",
        message: `${this.rel(resolved)} is not valid JSON: ${error.message}`,
      });
      return undefined;
    }
    this.documents.set(resolved, doc);
    for (const dup of doc.duplicateKeys) {
      const first = doc.position(dup.firstOffset);
      this.reportAt(
        options.layer,
        resolved,
        doc.position(dup.offset),
        {
          severity: "warning",
          code: "json.duplicate_key",
          message: `key "${dup.key}" appears twice in the same object (first at ${first.line}:${first.column}); this later value wins, as on the platform — remove one of them`,
        },
        dup.pointer,
      );
    }
    return doc;
  }
}

function isValidUtf8(bytes: Buffer): boolean {
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}
