// JSON the CLI reads from a file or a flag, parsed by the validator's position-keeping parser so
// every syntax error names its line and column ("line 3, column 7: expected ':' after the key
// \"b\""), the same way `anna-app validate` reports them. A leading BOM is accepted.
import { JsonSyntaxError, parseJsonDocument } from "../validate/json-document.js";

/** The parsed value; throws JsonSyntaxError (with `line` and `column`) on malformed text. */
export function parseJsonText(text: string): unknown {
  return parseJsonDocument(text).value;
}

/** `line 3, column 7: <what is wrong>` for a syntax error, else the error's message. */
export function describeJsonError(error: unknown): string {
  if (error instanceof JsonSyntaxError) {
    return `line ${error.line}, column ${error.column}: ${error.message}`;
  }
  return error instanceof Error ? error.message : String(error);
}
