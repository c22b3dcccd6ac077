// Per-invoke budgets (step 5). Every check reserves synchronously before the service is awaited,
// so concurrent reverse calls of one invoke can never overshoot a cap together; `settle`
// replaces the reservation with what the call actually used, `release` gives it back.
import {
  AGENT_ERRORS,
  IMAGE_ERRORS,
  SAMPLING_ERRORS,
  STORAGE_ERRORS,
  UPLOAD_ERRORS,
} from "@anna-ai/app-schema/errors";
import type { RpcError } from "@anna-ai/jsonrpc";
import type { ImageGrant, SamplingGrant, StorageGrant, UploadGrant } from "../services/grants.js";
import { catalogError } from "../services/service-error.js";
import type { RouterLimits } from "./limits.js";
import { UPLOAD_ALLOWED_PURPOSES, capped } from "./limits.js";

export interface Reservation {
  /** The call succeeded with this result: account for what it really used. */
  settle(result: unknown): void;
  /** The call failed: give back what was reserved (calls already made stay counted). */
  release(): void;
}

const NOTHING: Reservation = { settle: () => undefined, release: () => undefined };

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null
    ? (value as Record<string, unknown>)
    : undefined;
}

export class InvokeBudget {
  readonly #limits: RouterLimits;
  #samplingCalls = 0;
  #samplingTokens = 0;
  #samplingReserved = 0;
  #storageCalls = 0;
  #uploadFiles = 0;
  #uploadBytes = 0;
  /** r2_keys issued to this invoke → whether they already count as a file. */
  readonly #uploadKeys = new Map<string, boolean>();
  #images = 0;
  #imagesReserved = 0;

  constructor(limits: RouterLimits) {
    this.#limits = limits;
  }

  /** Snapshot for tests, traces and the invoke summary. */
  usage() {
    return {
      samplingCalls: this.#samplingCalls,
      samplingTokens: this.#samplingTokens,
      storageCalls: this.#storageCalls,
      uploadFiles: this.#uploadFiles,
      uploadBytes: this.#uploadBytes,
      images: this.#images,
    };
  }

  /** Sampling: calls per invoke (-32006) and cumulative tokens (-32007), T20. */
  sampling(maxTokens: number, grant: SamplingGrant): Reservation {
    const maxCalls = capped(grant.maxCalls, this.#limits.samplingMaxCallsPerInvoke);
    const maxTotal = capped(grant.maxTokensTotal, this.#limits.samplingMaxTokensPerInvoke);
    if (this.#samplingCalls >= maxCalls) {
      throw catalogError(
        SAMPLING_ERRORS.MAX_CALLS_EXCEEDED,
        `sampling call limit reached: ${maxCalls} calls per invoke (the cap is per invoke_id; make fewer calls per tool invocation)`,
        { maxCalls },
      );
    }
    const committed = this.#samplingTokens + this.#samplingReserved;
    if (committed + maxTokens > maxTotal) {
      throw catalogError(
        SAMPLING_ERRORS.MAX_TOKENS_EXCEEDED,
        `sampling token budget exhausted: ${this.#samplingTokens} of ${maxTotal} tokens used in this invoke and maxTokens=${maxTokens} does not fit (the cap is cumulative per invoke_id)`,
        { maxTokensTotal: maxTotal, tokensUsed: this.#samplingTokens },
      );
    }
    this.#samplingCalls += 1;
    this.#samplingReserved += maxTokens;
    let open = true;
    return {
      settle: (result) => {
        if (!open) return;
        open = false;
        this.#samplingReserved -= maxTokens;
        this.#samplingTokens += usedTokens(result, maxTokens);
      },
      release: () => {
        if (!open) return;
        open = false;
        this.#samplingReserved -= maxTokens;
      },
    };
  }

  /** storage/* and files/* share one call budget (`max_calls`, -32026). */
  storage(grant: StorageGrant): Reservation {
    const maxCalls = capped(grant.maxCalls, this.#limits.storageMaxCallsPerInvoke);
    if (this.#storageCalls >= maxCalls) {
      throw catalogError(
        STORAGE_ERRORS.RATE_LIMITED,
        `storage call limit reached: ${maxCalls} storage/files calls per invoke`,
        { maxCalls },
      );
    }
    this.#storageCalls += 1;
    return NOTHING;
  }

  /** image/generate and image/edit: host cap, per-call grant, images per invoke (R57) → -32106. */
  images(edit: boolean, n: number, grant: ImageGrant): Reservation {
    const hostCap = this.#limits.imageMaxNPerCall;
    if (n > hostCap) {
      throw catalogError(
        IMAGE_ERRORS.MAX_IMAGES_EXCEEDED,
        `n=${n} is over the host limit of ${hostCap} images per call`,
        { hostCap },
      );
    }
    const perCall = edit
      ? capped(grant.maxPerCallEdit, this.#limits.imageMaxPerCallEdit)
      : capped(grant.maxPerCallGenerate, this.#limits.imageMaxPerCallGenerate);
    if (n > perCall) {
      throw catalogError(
        IMAGE_ERRORS.MAX_IMAGES_EXCEEDED,
        `n=${n} is over the granted ${perCall} images per ${edit ? "edit" : "generate"} call; ask for fewer (do not retry silently with a smaller n)`,
        { maxPerCall: perCall },
      );
    }
    const maxImages = capped(grant.maxImages, this.#limits.imageMaxImagesPerInvoke);
    if (this.#images + this.#imagesReserved + n > maxImages) {
      throw catalogError(
        IMAGE_ERRORS.MAX_IMAGES_EXCEEDED,
        `image budget exhausted: ${this.#images} of ${maxImages} images already made in this invoke`,
        { images: this.#images, maxImages },
      );
    }
    this.#imagesReserved += n;
    let open = true;
    return {
      settle: (result) => {
        if (!open) return;
        open = false;
        this.#imagesReserved -= n;
        const images = record(result)?.["images"];
        this.#images += Array.isArray(images) ? images.length : n;
      },
      release: () => {
        if (!open) return;
        open = false;
        this.#imagesReserved -= n;
      },
    };
  }

  /** host/uploadFile: purposes, per-file and per-invoke limits, r2_key ownership (T28, R61–R62). */
  upload(params: Record<string, unknown>, grant: UploadGrant): Reservation {
    const maxFiles = capped(grant.maxFiles, this.#limits.uploadMaxFilesPerInvoke);
    const maxFileBytes = capped(grant.maxFileBytes, this.#limits.uploadMaxFileBytes);
    const maxTotal = capped(grant.maxTotalBytes, this.#limits.uploadMaxTotalBytesPerInvoke);
    const mode = params["mode"];

    if (mode === "confirm") {
      const key = String(params["r2_key"]);
      const counted = this.#uploadKeys.get(key);
      if (counted === undefined) {
        throw catalogError(UPLOAD_ERRORS.INVALID_REQUEST, "r2_key does not belong to this invoke");
      }
      // Confirming again mints a fresh URL at no quota cost (T28).
      if (counted) return NOTHING;
      this.#checkFiles(maxFiles);
      this.#uploadFiles += 1;
      let open = true;
      return {
        settle: (result) => {
          if (!open) return;
          open = false;
          const size = record(result)?.["size_bytes"];
          const bytes = typeof size === "number" ? size : 0;
          try {
            this.#checkBytes(bytes, maxFileBytes, maxTotal);
          } catch (error) {
            this.#uploadFiles -= 1;
            throw error;
          }
          this.#uploadBytes += bytes;
          this.#uploadKeys.set(key, true);
        },
        release: () => {
          if (!open) return;
          open = false;
          this.#uploadFiles -= 1;
        },
      };
    }

    this.#checkPurpose(String(params["purpose"]), grant);
    if (mode === "inline") {
      const bytes = Buffer.byteLength(String(params["content_b64"]), "base64");
      if (bytes > this.#limits.uploadInlineMaxBytes) {
        throw catalogError(
          UPLOAD_ERRORS.TOO_LARGE,
          `inline upload of ${bytes} bytes is over the ${this.#limits.uploadInlineMaxBytes}-byte inline limit; use mode "negotiate" and "confirm"`,
          { limit: "inline_max_bytes", maxBytes: this.#limits.uploadInlineMaxBytes },
        );
      }
      this.#checkFiles(maxFiles);
      this.#checkBytes(bytes, maxFileBytes, maxTotal);
      this.#uploadFiles += 1;
      this.#uploadBytes += bytes;
      let open = true;
      return {
        settle: (result) => {
          if (!open) return;
          open = false;
          const key = record(result)?.["r2_key"];
          if (typeof key === "string") this.#uploadKeys.set(key, true);
        },
        release: () => {
          if (!open) return;
          open = false;
          this.#uploadFiles -= 1;
          this.#uploadBytes -= bytes;
        },
      };
    }

    // negotiate: free, but refuse early what confirm would refuse (T28 "reject early").
    const expected = params["expected_bytes"];
    this.#checkFiles(maxFiles);
    if (typeof expected === "number") this.#checkBytes(expected, maxFileBytes, maxTotal);
    return {
      settle: (result) => {
        const key = record(result)?.["r2_key"];
        if (typeof key === "string" && !this.#uploadKeys.has(key)) this.#uploadKeys.set(key, false);
      },
      release: () => undefined,
    };
  }

  #checkPurpose(purpose: string, grant: UploadGrant): void {
    const allowed = (grant.allowedPurposes ?? UPLOAD_ALLOWED_PURPOSES).filter((p) =>
      UPLOAD_ALLOWED_PURPOSES.includes(p),
    );
    if (!allowed.includes(purpose)) {
      throw catalogError(
        UPLOAD_ERRORS.PURPOSE_REJECTED,
        `purpose '${purpose}' is not allowed; allowed purposes: ${allowed.join(", ")}`,
        { allowedPurposes: allowed },
      );
    }
  }

  #checkFiles(maxFiles: number): void {
    if (this.#uploadFiles >= maxFiles) {
      throw catalogError(
        UPLOAD_ERRORS.MAX_FILES_EXCEEDED,
        `upload limit reached: ${maxFiles} files per invoke`,
        { maxFiles },
      );
    }
  }

  #checkBytes(bytes: number, maxFileBytes: number, maxTotal: number): void {
    if (bytes > maxFileBytes) {
      throw catalogError(
        UPLOAD_ERRORS.TOO_LARGE,
        `file of ${bytes} bytes is over the ${maxFileBytes}-byte per-file limit`,
        { limit: "max_file_bytes", maxBytes: maxFileBytes },
      );
    }
    if (this.#uploadBytes + bytes > maxTotal) {
      throw catalogError(
        UPLOAD_ERRORS.TOO_LARGE,
        `upload budget exhausted: ${this.#uploadBytes} of ${maxTotal} bytes already uploaded in this invoke`,
        { limit: "max_total_bytes", maxBytes: maxTotal, errorName: "UPLOAD_MAX_BYTES_EXCEEDED" },
      );
    }
  }

  /** agent/session.run: buffered frames per run (R33) → -32047 AGENT_RUN_TOO_LARGE. */
  agentFrames(result: unknown): RpcError | undefined {
    const frames = record(result)?.["frames"];
    const max = this.#limits.agentMaxFramesPerRun;
    if (Array.isArray(frames) && frames.length > max) {
      return catalogError(
        AGENT_ERRORS.RUN_TOO_LARGE,
        `agent run produced ${frames.length} frames; at most ${max} per run`,
        { maxFrames: max },
      );
    }
    return undefined;
  }
}

function usedTokens(result: unknown, reserved: number): number {
  const usage = record(record(result)?.["usage"]);
  const total = usage?.["totalTokens"];
  if (typeof total === "number" && Number.isFinite(total) && total >= 0) return total;
  const input = usage?.["inputTokens"];
  const output = usage?.["outputTokens"];
  if (typeof input === "number" && typeof output === "number") return input + output;
  // No usage reported: count the worst case so the cap still holds.
  return reserved;
}
