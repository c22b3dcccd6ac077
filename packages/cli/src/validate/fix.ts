// `--fix`: the mechanical repairs that cannot change what the author meant — a `host_api` grant
// for a method the bundle already calls, and a mistyped ref with exactly one candidate at edit
// distance 1. Each is applied as a minimal text edit, so the rest of the file is untouched.
import { readFile, writeFile } from "node:fs/promises";
import { parseJsonDocument, type JsonDocument } from "./json-document.js";
import { addMember, appendToArray, jsonValueAt, replaceValue } from "./json-edit.js";

export type FixAction =
  /** Add `method` to `ui.host_api.<namespace>` (creating the list or `host_api` if needed). */
  | {
      readonly kind: "grant";
      readonly file: string;
      readonly namespace: string;
      readonly method: string;
    }
  /** Replace the string at `pointer` (which must still read `from`) with `to`. */
  | {
      readonly kind: "replace";
      readonly file: string;
      readonly pointer: string;
      readonly from: string;
      readonly to: string;
    };

export interface AppliedFix {
  /** Project-relative. */
  readonly file: string;
  readonly pointer: string;
  readonly description: string;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The new text, or undefined when the document no longer has the shape the fix expects. */
function applyOne(
  doc: JsonDocument,
  fix: FixAction,
): { text: string; pointer: string; description: string } | undefined {
  if (fix.kind === "replace") {
    if (jsonValueAt(doc, fix.pointer) !== fix.from) return undefined;
    return {
      text: replaceValue(doc, fix.pointer, fix.to),
      pointer: fix.pointer,
      description: `replaced ${JSON.stringify(fix.from)} with ${JSON.stringify(fix.to)}`,
    };
  }
  const grantPointer = `/ui/host_api/${fix.namespace}`;
  const list = jsonValueAt(doc, grantPointer);
  const description = `granted ${fix.namespace}.${fix.method} (added "${fix.method}" to ui.host_api.${fix.namespace})`;
  if (Array.isArray(list)) {
    if (list.includes(fix.method)) return undefined;
    return {
      text: appendToArray(doc, grantPointer, [fix.method]),
      pointer: grantPointer,
      description,
    };
  }
  if (list !== undefined && list !== null) return undefined;
  const hostApi = jsonValueAt(doc, "/ui/host_api");
  if (isObject(hostApi)) {
    if (list === null) {
      return {
        text: replaceValue(doc, grantPointer, [fix.method]),
        pointer: grantPointer,
        description,
      };
    }
    return {
      text: addMember(doc, "/ui/host_api", fix.namespace, [fix.method]),
      pointer: grantPointer,
      description,
    };
  }
  if (hostApi !== undefined && hostApi !== null) return undefined;
  if (!isObject(jsonValueAt(doc, "/ui"))) return undefined;
  const text =
    hostApi === null
      ? replaceValue(doc, "/ui/host_api", { [fix.namespace]: [fix.method] })
      : addMember(doc, "/ui", "host_api", { [fix.namespace]: [fix.method] });
  return { text, pointer: grantPointer, description };
}

/**
 * Applies the fixes file by file, re-parsing after each edit. Fixes whose target changed
 * (or repeat an earlier one) are skipped. `rel` turns absolute paths into report paths.
 */
export async function applyFixes(
  fixes: readonly FixAction[],
  rel: (absolute: string) => string,
): Promise<AppliedFix[]> {
  const applied: AppliedFix[] = [];
  const byFile = new Map<string, FixAction[]>();
  for (const fix of fixes) {
    const list = byFile.get(fix.file) ?? [];
    list.push(fix);
    byFile.set(fix.file, list);
  }
  for (const [file, list] of byFile) {
    let text = await readFile(file, "utf8");
    let changed = false;
    for (const fix of list) {
      const result = applyOne(parseJsonDocument(text), fix);
      if (result === undefined) continue;
      text = result.text;
      changed = true;
      applied.push({ file: rel(file), pointer: result.pointer, description: result.description });
    }
    if (changed) await writeFile(file, text);
  }
  return applied;
}
