import { HostApiError, SDK_ERROR_CODES } from "./errors.js";

const ENVELOPE_KEYS: ReadonlySet<string> = new Set(["success", "data", "error"]);
/** The dispatcher strips two layers (`{success, data: {success, data}}`, R143); so do we, at most. */
const MAX_ENVELOPE_LAYERS = 2;

function isEnvelope(
  value: unknown,
): value is { success: boolean; data?: unknown; error?: unknown } {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  if (typeof record["success"] !== "boolean") return false;
  return Object.keys(record).every((key) => ENVELOPE_KEYS.has(key));
}

/**
 * Ruling A4: `tools.invoke` resolves with the plugin's `data` when `success` is true and rejects
 * with `tool_failed` carrying its `error` otherwise. A result that is not an Executa envelope
 * (only `success`, `data`, `error` keys) is the payload already — a real host strips the
 * envelope, `anna-app dev` mocks often do not — and passes through untouched.
 */
export function unwrapToolResult(result: unknown): unknown {
  let value = result;
  for (let layer = 0; layer < MAX_ENVELOPE_LAYERS && isEnvelope(value); layer++) {
    if (!value.success) {
      const error = value.error;
      const message =
        typeof error === "string"
          ? error
          : typeof error === "object" &&
              error !== null &&
              typeof (error as { message?: unknown }).message === "string"
            ? (error as { message: string }).message
            : "the tool reported a failure";
      throw new HostApiError(SDK_ERROR_CODES.TOOL_FAILED, message, error);
    }
    value = value.data;
  }
  return value;
}
