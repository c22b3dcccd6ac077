// `install_plugins_batch_streaming` (R80): at most 3 installs at once, and one failure never
// aborts the others; each outcome is reported as soon as it is known and returned in order.
import { InstallError } from "./install-error.js";
import {
  type InstallOptions,
  type InstallRequest,
  type InstallResult,
  installExecuta,
} from "./install.js";

export const DEFAULT_BATCH_CONCURRENCY = 3;

export type BatchOutcome =
  | { index: number; request: InstallRequest; ok: true; result: InstallResult }
  | { index: number; request: InstallRequest; ok: false; error: InstallError };

export interface BatchOptions extends InstallOptions {
  concurrency?: number | undefined;
  /** Called once per request, in completion order. */
  onOutcome?: ((o: BatchOutcome) => void) | undefined;
}

export async function installBatch(
  requests: readonly InstallRequest[],
  options: BatchOptions = {},
): Promise<BatchOutcome[]> {
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? DEFAULT_BATCH_CONCURRENCY));
  const outcomes: BatchOutcome[] = new Array<BatchOutcome>(requests.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < requests.length; i = next++) {
      const request = requests[i]!;
      let outcome: BatchOutcome;
      try {
        outcome = { index: i, request, ok: true, result: await installExecuta(request, options) };
      } catch (err) {
        const error =
          err instanceof InstallError
            ? err
            : new InstallError(
                "INVALID_REQUEST",
                `install ${request.tool_id ?? request.package_name ?? `#${i}`}: ${err instanceof Error ? err.message : String(err)}`,
                { cause: err },
              );
        outcome = { index: i, request, ok: false, error };
      }
      outcomes[i] = outcome;
      options.onOutcome?.(outcome);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, requests.length) }, worker));
  return outcomes;
}
