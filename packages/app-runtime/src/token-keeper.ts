import type { Logger } from "@anna-ai/jsonrpc";
import {
  readRefreshedToken,
  refreshDelayMs,
  TOKEN_REFRESH_RETRY_MS,
  tokenExpiresAtMs,
} from "./window-token.js";

/**
 * Holds the window token the bridge sends with every call and keeps it fresh: a refresh is asked
 * of the host page (`auth.refresh`) `TOKEN_REFRESH_MARGIN_MS` before expiry, and a token the page
 * pushes (`auth.refresh` event, L6156) replaces it at any time.
 */
export class TokenKeeper {
  #token: string;
  #expiresAtMs: number;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #inFlight: Promise<void> | undefined;
  #closed = false;
  readonly #requestRefresh: () => Promise<unknown>;
  readonly #logger: Logger;

  constructor(token: string, requestRefresh: () => Promise<unknown>, logger: Logger) {
    this.#token = token;
    this.#expiresAtMs = tokenExpiresAtMs(token, Date.now());
    this.#requestRefresh = requestRefresh;
    this.#logger = logger;
  }

  get token(): string {
    return this.#token;
  }

  get expiresAtMs(): number {
    return this.#expiresAtMs;
  }

  /** Arm the refresh timer for the current token. */
  start(): void {
    this.#schedule(refreshDelayMs(this.#expiresAtMs, Date.now()));
  }

  /** A token from the page (`auth.refresh` event or answer). False when it carried none. */
  accept(value: unknown): boolean {
    const refreshed = readRefreshedToken(value, Date.now());
    if (refreshed === undefined) return false;
    this.#token = refreshed.token;
    this.#expiresAtMs = refreshed.expiresAtMs;
    if (!this.#closed) this.start();
    return true;
  }

  /** Ask the page for a fresh token now; concurrent callers share one request. Never rejects. */
  refreshNow(): Promise<void> {
    this.#inFlight ??= this.#refresh().finally(() => {
      this.#inFlight = undefined;
    });
    return this.#inFlight;
  }

  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  async #refresh(): Promise<void> {
    try {
      const answer = await this.#requestRefresh();
      if (!this.accept(answer)) {
        this.#logger.warn("app-runtime: auth.refresh answered without a token");
        this.#retryLater();
      }
    } catch (error) {
      this.#logger.warn("app-runtime: auth.refresh failed", { error: String(error) });
      this.#retryLater();
    }
  }

  #retryLater(): void {
    if (!this.#closed) this.#schedule(TOKEN_REFRESH_RETRY_MS);
  }

  #schedule(delayMs: number): void {
    if (this.#closed) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.refreshNow();
    }, delayMs);
  }
}
