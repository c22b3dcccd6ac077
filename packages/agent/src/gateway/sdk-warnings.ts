// The AI SDK prints its warnings ("temperature is not supported by …") to the console unless the
// `AI_SDK_LOG_WARNINGS` global says otherwise; a library must never print. The gateway installs
// one forwarder that hands each warning to the listeners of live gateways (their `onWarning`),
// and leaves alone a value the embedding application set itself.
const listeners = new Set<(message: string) => void>();

interface WarningOptions {
  warnings: readonly unknown[];
  provider: string;
  model: string;
}

const forward = (options: WarningOptions): void => {
  for (const warning of options.warnings) {
    const w = warning as { type?: string; feature?: string; details?: string; message?: string };
    const text = `${options.provider}/${options.model}: ${w.details ?? w.message ?? w.feature ?? w.type ?? "warning"}`;
    for (const listener of listeners) listener(text);
  }
};

export function routeSdkWarnings(listener: ((message: string) => void) | undefined): void {
  const global = globalThis as { AI_SDK_LOG_WARNINGS?: unknown };
  if (global.AI_SDK_LOG_WARNINGS === undefined) global.AI_SDK_LOG_WARNINGS = forward;
  if (listener !== undefined) listeners.add(listener);
}
