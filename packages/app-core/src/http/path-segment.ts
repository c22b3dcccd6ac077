// A path segment as a route names it (a window id): percent-decoded, where a malformed escape
// (`%zz`, a lone `%`, `%ff` that is not UTF-8) is the client's error, not a URIError and a 500.
import { HttpError } from "./http-error.js";

export function decodePathSegment(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch (error) {
    throw new HttpError(
      "invalid_path",
      `${JSON.stringify(raw)} is not a valid percent-encoded path segment (each % needs two hex digits of UTF-8)`,
      { cause: error },
    );
  }
}
