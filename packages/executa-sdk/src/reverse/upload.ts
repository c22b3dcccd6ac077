import { UPLOAD_ERRORS } from "@anna-ai/app-schema/errors";
import { localError } from "./channel.js";
import { HostClient, compact, type CallControl } from "./host-client.js";

/** SDK default per call (R62). */
export const UPLOAD_TIMEOUT_MS = 120_000;
/** Decoded inline cap (`INLINE_MAX_BYTES`, T28); the SDK checks it before sending (R62). */
export const INLINE_MAX_BYTES = 8 * 1024 * 1024;

export type UploadPurpose = "image_input" | "image_reference" | "user_artifact";

/** Returned by inline and confirm; both canonical and legacy names are present (T28). */
export interface UploadEnvelope {
  r2_key: string;
  download_url: string;
  url?: string;
  mime_type?: string;
  size_bytes: number;
  bytes?: number;
  expires_at: string;
  expires_in?: number;
  _meta?: { mode?: string };
  [field: string]: unknown;
}

export interface NegotiateResult {
  r2_key: string;
  put_url: string;
  headers?: Record<string, string>;
  expires_in?: number;
  expires_at?: string;
  [field: string]: unknown;
}

export interface InlineOptions extends CallControl {
  filename: string;
  mimeType: string;
  content: Uint8Array | string;
  purpose?: UploadPurpose;
  metadata?: Record<string, unknown>;
}

export interface NegotiateOptions extends CallControl {
  filename: string;
  mimeType: string;
  sizeBytes: number;
  purpose?: UploadPurpose;
}

function toBytes(content: Uint8Array | string): Uint8Array {
  return typeof content === "string" ? new TextEncoder().encode(content) : content;
}

/** `host/uploadFile` (T28): hand bytes to the host and get a transient download URL. */
export class HostUploadClient extends HostClient {
  protected readonly family = "upload";
  protected readonly defaultTimeoutMs = UPLOAD_TIMEOUT_MS;
  protected override readonly sendsClientTimeout = true;

  /** Mode `inline`: the bytes travel base64 in the frame (large ones via file transport). */
  inline(options: InlineOptions): Promise<UploadEnvelope> {
    const bytes = toBytes(options.content);
    if (bytes.byteLength > INLINE_MAX_BYTES) {
      const message = `inline upload of ${bytes.byteLength} bytes exceeds ${INLINE_MAX_BYTES}; use negotiate/confirm`;
      return Promise.reject(
        localError("upload", "host/uploadFile", UPLOAD_ERRORS.TOO_LARGE, message),
      );
    }
    const content_b64 = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString(
      "base64",
    );
    return this.call(
      "host/uploadFile",
      compact({
        mode: "inline",
        filename: options.filename,
        mime_type: options.mimeType,
        purpose: options.purpose ?? "user_artifact",
        content_b64,
        metadata: options.metadata,
      }),
      options,
    );
  }

  /** The spec's name for `inline` (L3122). */
  uploadInline(options: InlineOptions): Promise<UploadEnvelope> {
    return this.inline(options);
  }

  /** Mode `negotiate`: a presigned PUT URL; PUT with exactly `headers`, no Authorization. */
  negotiate(options: NegotiateOptions): Promise<NegotiateResult> {
    return this.call(
      "host/uploadFile",
      {
        mode: "negotiate",
        filename: options.filename,
        mime_type: options.mimeType,
        purpose: options.purpose ?? "user_artifact",
        // The wire field is `expected_bytes`; real SDKs send `size_bytes` (Z23). Send both.
        expected_bytes: options.sizeBytes,
        size_bytes: options.sizeBytes,
      },
      options,
    );
  }

  /** Mode `confirm`: settle an object PUT after `negotiate`; re-confirming re-signs the URL. */
  confirm(r2Key: string, control: CallControl = {}): Promise<UploadEnvelope> {
    return this.call("host/uploadFile", { mode: "confirm", r2_key: r2Key }, control);
  }

  /** negotiate → PUT → confirm in one call, for bytes too large to send inline. */
  async presigned(options: Omit<InlineOptions, "metadata">): Promise<UploadEnvelope> {
    const bytes = toBytes(options.content);
    const negotiated = await this.negotiate({ ...options, sizeBytes: bytes.byteLength });
    let response: Response;
    try {
      response = await fetch(negotiated.put_url, {
        method: "PUT",
        headers: { "Content-Type": options.mimeType, ...negotiated.headers },
        body: bytes,
        ...(options.signal ? { signal: options.signal } : {}),
      });
    } catch (error) {
      throw localError(
        "upload",
        "host/uploadFile",
        UPLOAD_ERRORS.STORAGE_ERROR,
        `PUT failed: ${String(error)}`,
        error,
      );
    }
    await response.arrayBuffer();
    if (!response.ok) {
      throw localError(
        "upload",
        "host/uploadFile",
        UPLOAD_ERRORS.STORAGE_ERROR,
        `PUT failed: HTTP ${response.status}`,
      );
    }
    return this.confirm(negotiated.r2_key, options);
  }
}
