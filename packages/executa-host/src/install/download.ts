// Step 2–3 of the pipeline (R78): stream the asset to a private temp file with progress, hashing
// as it goes, and refuse anything that is not exactly what the asset declared. The byte limit is
// the declared size when there is one (no reason to accept a byte more), else the install's cap.
import { createHash } from "node:crypto";
import { open } from "node:fs/promises";
import { InstallError } from "./install-error.js";

export interface DownloadProgress {
  bytesDownloaded: number;
  /** Declared size, else Content-Length, else null. */
  bytesTotal: number | null;
}

export interface DownloadOptions {
  expectedSize?: number | undefined;
  sha256?: string | undefined;
  maxBytes: number;
  /** The whole transfer. */
  timeoutMs: number;
  /** No bytes for this long aborts (a stalled server). */
  idleTimeoutMs: number;
  signal?: AbortSignal | undefined;
  onProgress?: ((p: DownloadProgress) => void) | undefined;
  fetch?: typeof fetch | undefined;
}

export interface Downloaded {
  size: number;
  sha256: string;
}

/** Progress is reported at most this often (bytes), plus once at the end. */
const PROGRESS_STEP_BYTES = 256 * 1024;

/** Downloads `url` into `file` (created, must not exist) and checks size and sha256. */
export async function downloadTo(
  url: string,
  file: string,
  o: DownloadOptions,
): Promise<Downloaded> {
  const limit = o.expectedSize ?? o.maxBytes;
  if (limit > o.maxBytes) {
    throw new InstallError(
      "TOO_LARGE",
      `${url}: declared size ${o.expectedSize} bytes is over the install limit of ${o.maxBytes} bytes`,
    );
  }
  const idle = new AbortController();
  const total = AbortSignal.timeout(o.timeoutMs);
  const signals = [idle.signal, total, ...(o.signal ? [o.signal] : [])];
  const signal = AbortSignal.any(signals);
  let idleTimer: NodeJS.Timeout | undefined;
  const touch = () => {
    clearTimeout(idleTimer);
    idleTimer = setTimeout(() => idle.abort(), o.idleTimeoutMs);
  };
  const why = (err: unknown): InstallError => {
    if (err instanceof InstallError) return err;
    if (idle.signal.aborted)
      return new InstallError(
        "DOWNLOAD_FAILED",
        `${url}: no data for ${o.idleTimeoutMs} ms; the server stalled, try again later`,
        { cause: err },
      );
    if (total.aborted)
      return new InstallError(
        "DOWNLOAD_FAILED",
        `${url}: not finished after ${o.timeoutMs} ms; try again on a faster link`,
        { cause: err },
      );
    if (o.signal?.aborted)
      return new InstallError("DOWNLOAD_FAILED", `${url}: the install was cancelled`, {
        cause: err,
      });
    const detail = err instanceof Error ? err.message : String(err);
    return new InstallError(
      "DOWNLOAD_FAILED",
      `${url}: the download broke off (${detail}); the archive was not installed`,
      {
        cause: err,
      },
    );
  };

  const fh = await open(file, "wx", 0o600);
  touch();
  try {
    const res = await (o.fetch ?? fetch)(url, { signal, redirect: "follow" });
    if (!res.ok || res.body === null) {
      await res.body?.cancel().catch(() => undefined);
      throw new InstallError(
        "DOWNLOAD_FAILED",
        `${url}: the server answered ${res.status} ${res.statusText}; check that the URL still serves the archive`,
      );
    }
    const header = res.headers.get("content-length");
    const announced = header === null ? null : Number(header);
    if (announced !== null && Number.isSafeInteger(announced)) {
      if (o.expectedSize !== undefined && announced !== o.expectedSize) {
        await res.body.cancel().catch(() => undefined);
        throw new InstallError(
          "INTEGRITY_MISMATCH",
          `${url}: the server sends ${announced} bytes but the asset declares size ${o.expectedSize}; the archive changed or the listing is wrong`,
        );
      }
      if (announced > limit) {
        await res.body.cancel().catch(() => undefined);
        throw new InstallError(
          "TOO_LARGE",
          `${url}: ${announced} bytes is over the install limit of ${limit} bytes`,
        );
      }
    }
    const bytesTotal = o.expectedSize ?? (announced !== null && announced >= 0 ? announced : null);
    const hash = createHash("sha256");
    let received = 0;
    let reported = 0;
    o.onProgress?.({ bytesDownloaded: 0, bytesTotal });
    const reader = res.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      touch();
      received += value.byteLength;
      if (received > limit) {
        await reader.cancel().catch(() => undefined);
        throw o.expectedSize !== undefined
          ? new InstallError(
              "INTEGRITY_MISMATCH",
              `${url}: more than the declared ${o.expectedSize} bytes arrived; the archive is not the one published`,
            )
          : new InstallError(
              "TOO_LARGE",
              `${url}: more than ${limit} bytes; over the install limit`,
            );
      }
      hash.update(value);
      await fh.write(value);
      if (received - reported >= PROGRESS_STEP_BYTES) {
        reported = received;
        o.onProgress?.({ bytesDownloaded: received, bytesTotal });
      }
    }
    o.onProgress?.({ bytesDownloaded: received, bytesTotal });
    if (announced !== null && received < announced) {
      throw new InstallError(
        "DOWNLOAD_FAILED",
        `${url}: the download was cut short at ${received} of ${announced} bytes; try again`,
      );
    }
    if (o.expectedSize !== undefined && received !== o.expectedSize) {
      throw new InstallError(
        "INTEGRITY_MISMATCH",
        `${url}: ${received} bytes arrived but the asset declares size ${o.expectedSize}; the download is truncated or the archive changed`,
      );
    }
    const sha256 = hash.digest("hex");
    if (o.sha256 !== undefined && sha256 !== o.sha256) {
      throw new InstallError(
        "INTEGRITY_MISMATCH",
        `${url}: sha256 ${sha256} does not match the declared ${o.sha256}; the archive was tampered with or re-uploaded`,
      );
    }
    return { size: received, sha256 };
  } catch (err) {
    throw why(err);
  } finally {
    clearTimeout(idleTimer);
    await fh.close();
  }
}
