// Turning a Nexus error answer into one line that says what was wrong and what to do, with the
// published CLI's exit codes (real-world-cli.md §0.2): 401 → 2, 403 → 3, ≥ 500 and network → 6,
// any other status → 5. Our Nexus answers `{"detail": {"code", "message", …}}`; other servers may
// send a string `detail` or plain text, which are shown as they are (first 240 characters).
import {
  EXIT_FORBIDDEN,
  EXIT_REQUEST_FAILED,
  EXIT_SERVER,
  EXIT_USAGE,
  ExitError,
} from "../cli/exit-error.js";

const MAX_DESCRIBED_CHARS = 240;

/** The `detail` of an error body, whichever of the shapes it has. */
export interface ErrorDetail {
  code?: string;
  message: string;
  /** Missing-scope errors: `{detail: {detail: "missing_scope", needed, missing, have}}`. */
  missingScope?: { needed: string[]; missing: string[]; have: string[] };
}

/** Server text goes to a terminal: control characters (escape sequences, newlines) become spaces. */
const printable = (text: string) =>
  // eslint-disable-next-line no-control-regex
  text.replace(/[\s\u0000-\u001f\u007f-\u009f]+/g, " ").trim();

const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((s): s is string => typeof s === "string") : [];

export function readErrorDetail(body: unknown): ErrorDetail {
  const d = readRawDetail(body);
  return { ...d, message: printable(d.message) || "(empty body)" };
}

function readRawDetail(body: unknown): ErrorDetail {
  if (typeof body === "string") return { message: body.slice(0, MAX_DESCRIBED_CHARS) };
  if (body === null || typeof body !== "object") return { message: "(empty body)" };
  const detail = (body as { detail?: unknown }).detail;
  if (typeof detail === "string") {
    return detail === "missing_scope"
      ? { code: detail, message: detail, missingScope: { needed: [], missing: [], have: [] } }
      : { message: detail };
  }
  if (detail !== null && typeof detail === "object") {
    const d = detail as Record<string, unknown>;
    const code = typeof d.code === "string" ? d.code : undefined;
    const message =
      typeof d.message === "string"
        ? d.message
        : JSON.stringify(detail).slice(0, MAX_DESCRIBED_CHARS);
    const out: ErrorDetail = { message, ...(code === undefined ? {} : { code }) };
    if (d.detail === "missing_scope" || code === "missing_scope") {
      out.missingScope = {
        needed: strings(d.needed),
        missing: strings(d.missing),
        have: strings(d.have),
      };
    }
    return out;
  }
  return { message: JSON.stringify(body).slice(0, MAX_DESCRIBED_CHARS) };
}

/** A Nexus call that did not succeed; `exitCode` is what the CLI exits with. */
export class NexusRequestError extends ExitError {
  readonly status: number | undefined;
  readonly code: string | undefined;

  constructor(
    exitCode: number,
    message: string,
    options: { status?: number; code?: string; cause?: unknown } = {},
  ) {
    super(exitCode, message, { cause: options.cause });
    this.name = "NexusRequestError";
    this.status = options.status;
    this.code = options.code;
  }
}

/** `run anna-app login --host <host>` — the fix for every PAT problem. */
export function loginHint(host: string): string {
  return `run 'anna-app login --host ${host}'`;
}

/** What the CLI says about a non-2xx answer to `what` (e.g. `GET /api/v1/me`). */
export function errorForStatus(
  host: string,
  what: string,
  status: number,
  body: unknown,
): NexusRequestError {
  const d = readErrorDetail(body);
  const tag = d.code === undefined ? `${status}` : `${status} ${d.code}`;
  const opts = { status, ...(d.code === undefined ? {} : { code: d.code }) };
  if (status === 401) {
    const why =
      d.code === "token_revoked"
        ? `the saved token for ${host} was revoked`
        : d.code === "token_expired"
          ? `the saved token for ${host} has expired`
          : `${host} rejected the saved token (${tag}: ${d.message})`;
    return new NexusRequestError(EXIT_USAGE, `${why}; ${loginHint(host)} for a new one`, opts);
  }
  if (status === 403 && d.missingScope) {
    const { needed, missing, have } = d.missingScope;
    const need = (missing.length ? missing : needed).join(", ") || "(not named by the server)";
    return new NexusRequestError(
      EXIT_FORBIDDEN,
      `${what} needs PAT scope ${need}, the saved token has [${have.join(", ")}]; tokens cannot ` +
        `be upgraded: ${loginHint(host)} for a new one`,
      opts,
    );
  }
  if (status === 403) {
    const developer =
      /verified developer/i.test(d.message) && !d.message.includes("/developer")
        ? `; activate developer access at ${host}/developer`
        : "";
    return new NexusRequestError(
      EXIT_FORBIDDEN,
      `${what} refused (${tag}): ${d.message}${developer}`,
      opts,
    );
  }
  if (status >= 500) {
    return new NexusRequestError(
      EXIT_SERVER,
      `${what} failed on the server (${tag}): ${d.message}`,
      opts,
    );
  }
  return new NexusRequestError(EXIT_REQUEST_FAILED, `${what} failed (${tag}): ${d.message}`, opts);
}
