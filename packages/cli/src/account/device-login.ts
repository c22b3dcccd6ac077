// The device flow as the published CLI runs it (real-world-cli.md §1): POST …/login/start with a
// JSON content type and no body; then, until the deadline, sleep `interval` first and POST
// …/login/poll `{device_code}`: 202 pending, 410 expired, 200 with the PAT. On top of it we honour
// RFC 8628's `slow_down` (as a 429, or `error`/`status: "slow_down"` in the body: +5 s each
// time) and `authorization_pending` answered as 400, and ride out two network blips in a row.
import { setTimeout as sleep } from "node:timers/promises";
import { EXIT_RUNTIME } from "../cli/exit-error.js";
import type { NexusClient } from "./nexus-client.js";
import { NexusRequestError, readErrorDetail } from "./nexus-error.js";

const DEV = "/api/v1/anna-apps/dev";
/** The published CLI's bounds on the advertised interval are 2–15 s; we allow 1 s (local servers). */
export const MIN_POLL_INTERVAL_S = 1;
export const MAX_POLL_INTERVAL_S = 15;
export const DEFAULT_POLL_INTERVAL_S = 5;
/** RFC 8628 §3.5: each `slow_down` adds five seconds. */
export const SLOW_DOWN_STEP_S = 5;
/** However long the code lives, we stop waiting after this (the published CLI's 12 minutes). */
export const MAX_WAIT_MS = 12 * 60_000;
/** Used when a server forgets `expires_in` (the published CLI would time out at once). */
export const DEFAULT_CODE_LIFETIME_S = 600;
/** Network failures in a row that end the wait. */
const MAX_NETWORK_FAILURES = 3;

export interface DeviceStart {
  deviceCode: string;
  userCode: string;
  /** Absolute: the host plus the server's (relative) `verification_uri_complete`. */
  verificationUrl: string;
  expiresInS: number;
  intervalS: number;
}

export interface DeviceGrant {
  pat: string;
  /** PAT lifetime in seconds; 0 when the server did not say. */
  expiresInS: number;
  /** Stored verbatim, whatever shape the server sent. */
  scopes: unknown;
  /** Our Nexus names the PAT's id, which logout uses to revoke it. */
  tokenId?: number;
}

function fail(message: string, cause?: unknown): NexusRequestError {
  return new NexusRequestError(EXIT_RUNTIME, message, { cause });
}

const clamp = (n: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, n));

export async function startDeviceLogin(
  client: NexusClient,
  signal?: AbortSignal,
): Promise<DeviceStart> {
  let body: Record<string, unknown>;
  try {
    const res = await client.post<Record<string, unknown>>(`${DEV}/login/start`, {
      headers: { "content-type": "application/json" },
      auth: false,
      ...(signal ? { signal } : {}),
    });
    body = res.body !== null && typeof res.body === "object" ? res.body : {};
  } catch (error) {
    if (error instanceof NexusRequestError) throw fail(`login: ${error.message}`, error);
    throw error;
  }
  const { device_code, user_code, verification_uri_complete, expires_in, interval } = body;
  if (typeof device_code !== "string" || typeof user_code !== "string") {
    throw fail(
      `login: ${client.host} answered ${DEV}/login/start without device_code and user_code; is it a Nexus?`,
    );
  }
  const link = typeof verification_uri_complete === "string" ? verification_uri_complete : "";
  return {
    deviceCode: device_code,
    userCode: user_code,
    // Relative per the published CLI; an absolute URL from another server is used as it is.
    verificationUrl: /^https?:\/\//i.test(link) ? link : `${client.host}${link || "/device"}`,
    expiresInS:
      typeof expires_in === "number" && expires_in > 0 ? expires_in : DEFAULT_CODE_LIFETIME_S,
    intervalS: clamp(
      typeof interval === "number" && interval > 0 ? interval : DEFAULT_POLL_INTERVAL_S,
      MIN_POLL_INTERVAL_S,
      MAX_POLL_INTERVAL_S,
    ),
  };
}

export interface PollOptions {
  signal?: AbortSignal;
  /** Called before each wait with the time left until the code expires. */
  onWait?: (remainingMs: number, intervalS: number) => void;
  now?: () => number;
}

export async function pollDeviceLogin(
  client: NexusClient,
  start: DeviceStart,
  options: PollOptions = {},
): Promise<DeviceGrant> {
  const now = options.now ?? Date.now;
  const deadline = now() + Math.min(MAX_WAIT_MS, start.expiresInS * 1000);
  let intervalS = start.intervalS;
  let networkFailures = 0;
  for (;;) {
    options.onWait?.(Math.max(0, deadline - now()), intervalS);
    await sleep(intervalS * 1000, undefined, options.signal ? { signal: options.signal } : {});
    if (now() >= deadline) {
      throw fail("login: timed out waiting for approval; run anna-app login again");
    }
    let res;
    try {
      res = await client.post(`${DEV}/login/poll`, {
        body: { device_code: start.deviceCode },
        auth: false,
        allowStatuses: [202, 400, 410, 429],
        ...(options.signal ? { signal: options.signal } : {}),
      });
    } catch (error) {
      if (error instanceof NexusRequestError && error.status === undefined) {
        networkFailures++;
        if (networkFailures < MAX_NETWORK_FAILURES) continue;
      }
      if (error instanceof NexusRequestError) throw fail(`login: ${error.message}`, error);
      throw error;
    }
    networkFailures = 0;
    const signalWord = pollWord(res.body);
    if (res.status === 200) return grantOf(client, res.body);
    if (res.status === 410) throw fail("login: the device code expired; run anna-app login again");
    if (res.status === 429 || signalWord === "slow_down") {
      const retryAfter = Number(res.headers.get("retry-after"));
      intervalS = Math.max(
        intervalS + SLOW_DOWN_STEP_S,
        Number.isFinite(retryAfter) ? retryAfter : 0,
      );
      continue;
    }
    if (res.status === 202 || signalWord === "authorization_pending") continue;
    const d = readErrorDetail(res.body);
    throw fail(
      `login: ${client.host} answered the poll with ${res.status}${d.code ? ` ${d.code}` : ""}: ${d.message}`,
    );
  }
}

/** RFC 8628 servers put `error`; ours a `status` word in the 202 body. */
function pollWord(body: unknown): string | undefined {
  if (body === null || typeof body !== "object") return undefined;
  const { error, status, detail } = body as Record<string, unknown>;
  for (const v of [error, status, (detail as { code?: unknown } | undefined)?.code]) {
    if (typeof v === "string") return v;
  }
  return undefined;
}

function grantOf(client: NexusClient, body: unknown): DeviceGrant {
  const b = (body !== null && typeof body === "object" ? body : {}) as Record<string, unknown>;
  if (typeof b.pat !== "string" || b.pat === "") {
    throw fail(`login: ${client.host} approved the login but sent no PAT`);
  }
  return {
    pat: b.pat,
    expiresInS: typeof b.expires_in === "number" && b.expires_in > 0 ? b.expires_in : 0,
    scopes: b.scopes,
    ...(typeof b.token_id === "number" ? { tokenId: b.token_id } : {}),
  };
}
