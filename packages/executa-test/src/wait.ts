// Every wait in this package ends on an event or on a named, explicit timeout: a plugin that never
// answers fails the test with what was awaited and what the plugin did instead.

/** Long enough for a cold Python or Go start on a busy 2-core CI runner; waits end on the event. */
export const WAIT_TIMEOUT_MS = 10_000;

export class WaitTimeoutError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WaitTimeoutError";
  }
}

export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new WaitTimeoutError(`timed out after ${ms} ms waiting for ${what}`)),
      ms,
    );
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
