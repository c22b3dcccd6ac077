// Zod-free entry point (`@anna-ai/app-schema/redact`): the one redaction list.
export {
  isSecretKey,
  maskText,
  MIN_SECRET_VALUE_CHARS,
  REDACTED,
  redactSecrets,
  Redactor,
  secretValues,
} from "./redact.js";
