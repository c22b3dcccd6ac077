import type { Logger } from "./types.js";

function discard(): void {}

/** The default logger: libraries never print unless the caller hands them a logger. */
export const NULL_LOGGER: Logger = Object.freeze({
  debug: discard,
  info: discard,
  warn: discard,
  error: discard,
});
