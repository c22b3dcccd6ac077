// Pushing binary_artifacts to a Nexus (real-world-cli.md §B): an upload token from B1 (the PAT)
// or B2 (a CI's OIDC id-token), B3 init for the plan, B4 parts sent one after another (skipping
// the `uploaded_parts` the server already has, so an interrupted upload resumes), B5 finalize —
// sent even when every platform `exists`. A part gets up to 3 attempts, 500 ms × attempt apart,
// and only after a network error, a 5xx or a 429. Exit codes as the published CLI's: 401 → 2,
// 403 → 3, ≥ 500 → 6, other statuses → 5 (B2: other statuses → 3).
import { open } from "node:fs/promises";
import type { NexusClient } from "../account/nexus-client.js";
import { NexusRequestError, readErrorDetail } from "../account/nexus-error.js";
import { EXIT_FORBIDDEN, EXIT_REQUEST_FAILED, EXIT_SERVER, EXIT_USAGE } from "../cli/exit-error.js";
import type { LocalArtifact } from "./binary-artifacts.js";

export const DEV = "/api/v1/anna-apps/dev";
export const PART_ATTEMPTS = 3;
export const RETRY_STEP_MS = 500;
/** A plan asking for bigger parts than this is refused rather than held in memory. */
const MAX_PART_BYTES = 256 * 1024 * 1024;
const REQUEST_TIMEOUT_MS = 120_000;

export type UploadAuth = { kind: "pat"; client: NexusClient } | { kind: "oidc"; oidcToken: string };

export interface UploadProgress {
  platform: string;
  sentBytes: number;
  totalBytes: number;
  partsDone: number;
  partCount: number;
}

export interface PlatformResult {
  platform: string;
  filename: string;
  sha256: string;
  byte_size: number;
  /** `exists` (skipped), `uploaded`; in a dry run what it would be: `exists` or `upload`. */
  status: string;
  parts_sent: number;
  url: string | null;
}

export interface UploadResult {
  host: string;
  tool_id: string;
  version: string;
  dry_run: boolean;
  upload_id: string | null;
  platforms: PlatformResult[];
}

export interface UploadOptions {
  host: string;
  toolId: string;
  version: string;
  artifacts: LocalArtifact[];
  dryRun: boolean;
  auth: UploadAuth;
  onProgress?: (p: UploadProgress) => void;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
}

interface PlanAsset {
  status?: string;
  part_size?: number;
  part_count?: number;
  uploaded_parts?: number[];
}

const seg = encodeURIComponent;
const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

class RetryableStatus extends Error {}

/** The published CLI's B2–B5 error text: `detail.code` + `detail.message`, a string, or text. */
function uploadError(status: number, body: unknown, what: string): NexusRequestError {
  const d = readErrorDetail(body);
  const tag = d.code === undefined ? `${status}` : `${status} ${d.code}`;
  const opts = { status, ...(d.code === undefined ? {} : { code: d.code }) };
  if (status === 401) {
    return new NexusRequestError(
      EXIT_USAGE,
      `upload token rejected (${tag}) while ${what}: ${d.message}; run the command again for a fresh token`,
      opts,
    );
  }
  if (status === 403) {
    return new NexusRequestError(
      EXIT_FORBIDDEN,
      `binary upload forbidden (${tag}): ${d.message}`,
      opts,
    );
  }
  if (status >= 500) {
    return new NexusRequestError(
      EXIT_SERVER,
      `binary upload failed on the server (${tag}): ${d.message}`,
      opts,
    );
  }
  return new NexusRequestError(
    EXIT_REQUEST_FAILED,
    `binary upload failed (${tag}): ${d.message}`,
    opts,
  );
}

async function parsed(res: Response): Promise<unknown> {
  const text = await res.text();
  if (text === "") return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function networkError(host: string, what: string, err: unknown): NexusRequestError {
  const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message;
  return new NexusRequestError(EXIT_SERVER, `cannot reach ${host} (${what}): ${cause}`, {
    cause: err,
  });
}

/** B2: a CI's OIDC id-token → an upload token. */
export async function exchangeOidc(
  host: string,
  toolId: string,
  oidcToken: string,
  doFetch: typeof fetch = fetch,
): Promise<string> {
  let res: Response;
  try {
    res = await doFetch(`${host}${DEV}/upload-session/oidc-exchange`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ tool_id: toolId, oidc_token: oidcToken }),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch (err) {
    throw networkError(host, "the OIDC exchange", err);
  }
  const body = await parsed(res);
  if (!res.ok) {
    const d = readErrorDetail(body);
    const exit = res.status === 401 ? EXIT_USAGE : res.status >= 500 ? EXIT_SERVER : EXIT_FORBIDDEN;
    throw new NexusRequestError(
      exit,
      `OIDC exchange failed (${res.status} ${d.code ?? ""}): ${d.message}`.replace(" )", ")"),
      { status: res.status },
    );
  }
  const token = (body as { upload_token?: unknown } | null)?.upload_token;
  if (typeof token !== "string") {
    throw new NexusRequestError(EXIT_SERVER, "the OIDC exchange answered without an upload_token");
  }
  return token;
}

/** `--oidc` in GitHub Actions: the runner's id-token for audience `anna-aps`. */
export async function githubOidcToken(
  env: NodeJS.ProcessEnv,
  doFetch: typeof fetch = fetch,
): Promise<string> {
  const url = env.ACTIONS_ID_TOKEN_REQUEST_URL;
  const bearer = env.ACTIONS_ID_TOKEN_REQUEST_TOKEN;
  if (!url || !bearer) {
    throw new NexusRequestError(
      EXIT_USAGE,
      "--oidc needs ACTIONS_ID_TOKEN_REQUEST_URL and ACTIONS_ID_TOKEN_REQUEST_TOKEN: run it in GitHub Actions with `permissions: id-token: write`",
    );
  }
  const u = new URL(url);
  u.searchParams.set("audience", "anna-aps");
  let res: Response;
  try {
    res = await doFetch(u, {
      headers: { authorization: `Bearer ${bearer}`, accept: "application/json" },
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch (err) {
    throw networkError(u.origin, "fetching the GitHub OIDC token", err);
  }
  const value = ((await parsed(res)) as { value?: unknown } | null)?.value;
  if (!res.ok || typeof value !== "string") {
    throw new NexusRequestError(
      EXIT_FORBIDDEN,
      `GitHub did not give an OIDC token (${res.status}); check the job's \`permissions: id-token: write\``,
    );
  }
  return value;
}

async function readRange(file: string, start: number, length: number): Promise<Buffer> {
  const fh = await open(file, "r");
  try {
    const buf = Buffer.alloc(length);
    let got = 0;
    while (got < length) {
      const { bytesRead } = await fh.read(buf, got, length - got, start + got);
      if (bytesRead === 0) break;
      got += bytesRead;
    }
    return got === length ? buf : buf.subarray(0, got);
  } finally {
    await fh.close();
  }
}

export async function uploadBinaries(o: UploadOptions): Promise<UploadResult> {
  const doFetch = o.fetch ?? fetch;
  const sleep = o.sleep ?? defaultSleep;
  const base = `${o.host}${DEV}/executas/${seg(o.toolId)}/binaries`;

  let token: string;
  if (o.auth.kind === "pat") {
    const minted = await o.auth.client.post<{ upload_token?: unknown }>(
      `${DEV}/upload-session/mint`,
      {
        body: { tool_id: o.toolId },
        what: `minting an upload token for ${o.toolId}`,
      },
    );
    if (typeof minted.body?.upload_token !== "string") {
      throw new NexusRequestError(
        EXIT_SERVER,
        "the upload-session mint answered without an upload_token",
      );
    }
    token = minted.body.upload_token;
  } else {
    token = await exchangeOidc(o.host, o.toolId, o.auth.oidcToken, doFetch);
  }
  const auth = { authorization: `Bearer ${token}`, accept: "application/json" };

  const call = async (url: string, init: RequestInit, what: string) => {
    let res: Response;
    try {
      res = await doFetch(url, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    } catch (err) {
      throw networkError(o.host, what, err);
    }
    const body = await parsed(res);
    if (!res.ok) throw uploadError(res.status, body, what);
    return body;
  };

  const planBody = await call(
    `${base}/init`,
    {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({
        executa_version: o.version,
        assets: Object.fromEntries(
          o.artifacts.map((a) => [
            a.platform,
            {
              filename: a.filename,
              sha256: a.sha256,
              byte_size: a.byteSize,
              format: a.format,
              ...(a.entrypoint === undefined ? {} : { entrypoint: a.entrypoint }),
            },
          ]),
        ),
        dry_run: o.dryRun,
      }),
    },
    "planning the upload",
  );
  const plan = planBody as { upload_id?: string | null; assets?: Record<string, PlanAsset> };
  const uploadId = plan.upload_id ?? null;
  const results: PlatformResult[] = [];
  for (const a of o.artifacts) {
    const planned = plan.assets?.[a.platform];
    if (!planned) {
      throw new NexusRequestError(EXIT_SERVER, `server plan is missing platform ${a.platform}`);
    }
    results.push({
      platform: a.platform,
      filename: a.filename,
      sha256: a.sha256,
      byte_size: a.byteSize,
      status: planned.status === "exists" ? "exists" : o.dryRun ? "upload" : "uploaded",
      parts_sent: 0,
      url: null,
    });
  }
  const result: UploadResult = {
    host: o.host,
    tool_id: o.toolId,
    version: o.version,
    dry_run: o.dryRun,
    upload_id: uploadId,
    platforms: results,
  };
  if (o.dryRun) return result;
  if (uploadId === null)
    throw new NexusRequestError(EXIT_SERVER, "the server plan has no upload_id");

  for (const [i, a] of o.artifacts.entries()) {
    const planned = plan.assets![a.platform]!;
    if (planned.status === "exists") continue;
    const partSize = planned.part_size ?? 0;
    const partCount = planned.part_count ?? 0;
    if (
      !(partSize >= 1 && partSize <= MAX_PART_BYTES) ||
      partCount !== Math.ceil(a.byteSize / partSize)
    ) {
      throw new NexusRequestError(
        EXIT_SERVER,
        `server plan for ${a.platform} is unusable (part_size ${partSize}, part_count ${partCount} for ${a.byteSize} bytes)`,
      );
    }
    const have = new Set(planned.uploaded_parts ?? []);
    let sent = [...have].reduce((n, idx) => n + Math.min(partSize, a.byteSize - idx * partSize), 0);
    let done = have.size;
    const report = () =>
      o.onProgress?.({
        platform: a.platform,
        sentBytes: sent,
        totalBytes: a.byteSize,
        partsDone: done,
        partCount,
      });
    report();
    for (let index = 0; index < partCount; index++) {
      if (have.has(index)) continue;
      const start = index * partSize;
      const bytes = await readRange(a.file, start, Math.min(partSize, a.byteSize - start));
      await sendPart(
        `${base}/${seg(uploadId)}/part?platform=${seg(a.platform)}&index=${index}`,
        bytes,
        a.platform,
        index,
      );
      sent += bytes.length;
      done += 1;
      results[i]!.parts_sent += 1;
      report();
    }
  }

  const fin = (await call(
    `${base}/${seg(uploadId)}/finalize`,
    { method: "POST", headers: { ...auth, "content-type": "application/json" }, body: "{}" },
    "finalizing the upload",
  )) as { assets?: Record<string, { sha256?: unknown; url?: unknown }> } | null;
  for (const r of results) {
    const asset = fin?.assets?.[r.platform];
    if (typeof asset?.url === "string") r.url = asset.url;
  }
  return result;

  async function sendPart(url: string, bytes: Buffer, platform: string, index: number) {
    const what = `sending part ${index} of ${platform}`;
    for (let attempt = 1; ; attempt++) {
      try {
        let res: Response;
        try {
          res = await doFetch(url, {
            method: "POST",
            headers: { ...auth, "content-type": "application/octet-stream" },
            body: new Uint8Array(bytes),
            signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
          });
        } catch (err) {
          throw networkError(o.host, what, err);
        }
        if (res.ok) {
          await res.arrayBuffer();
          return;
        }
        const err = uploadError(res.status, await parsed(res), what);
        if (res.status >= 500 || res.status === 429)
          throw new RetryableStatus(err.message, { cause: err });
        throw err;
      } catch (err) {
        const retryable =
          err instanceof RetryableStatus ||
          (err instanceof NexusRequestError &&
            err.status === undefined &&
            err.exitCode === EXIT_SERVER);
        if (!retryable || attempt >= PART_ATTEMPTS) {
          throw err instanceof RetryableStatus ? (err.cause as Error) : err;
        }
        await sleep(RETRY_STEP_MS * attempt);
      }
    }
  }
}
