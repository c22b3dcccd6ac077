// An API key as a value that cannot leak by accident: string conversion, JSON, util.inspect and
// template literals all print "[redacted]". Only `reveal()` gives the key, and only the provider
// factory calls it, to put it in a request header.
import { inspect } from "node:util";

export const REDACTED = "[redacted]";

export class Secret {
  readonly #value: string;

  constructor(value: string) {
    this.#value = value;
  }

  reveal(): string {
    return this.#value;
  }

  toString(): string {
    return REDACTED;
  }

  toJSON(): string {
    return REDACTED;
  }

  [inspect.custom](): string {
    return `Secret(${REDACTED})`;
  }
}

/**
 * `text` with every occurrence of each secret replaced by "[redacted]". Provider errors can echo
 * a request (a URL, a header dump, a body); this runs on every message the gateway lets out.
 */
export function redactSecrets(text: string, secrets: readonly (Secret | undefined)[]): string {
  let out = text;
  for (const secret of secrets) {
    const value = secret?.reveal();
    // A very short "key" would redact ordinary words; real keys are long.
    if (value === undefined || value.length < 6) continue;
    out = out.split(value).join(REDACTED);
  }
  return out;
}
