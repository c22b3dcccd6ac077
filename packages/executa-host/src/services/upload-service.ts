// `host/uploadFile` (T28, R61–R63): one wire method, three modes. The router checks purposes,
// per-file and per-invoke limits and that a confirmed `r2_key` was issued to this invoke.
import type { UploadGrant } from "./grants.js";
import type { ServiceContext } from "./service-context.js";

export interface UploadInlineParams {
  mode: "inline";
  filename: string;
  mime_type: string;
  content_b64: string;
  /** Filled in by the router (default `user_artifact`). */
  purpose: string;
  metadata?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface UploadNegotiateParams {
  mode: "negotiate";
  filename: string;
  mime_type: string;
  /** Wire name; the SDK's `size_bytes` is copied here by the router (Z23). */
  expected_bytes?: number;
  purpose: string;
  metadata?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface UploadConfirmParams {
  mode: "confirm";
  r2_key: string;
  [key: string]: unknown;
}

/** Returned by inline and confirm: canonical fields plus the legacy aliases (T28). */
export interface UploadEnvelope {
  r2_key: string;
  download_url: string;
  size_bytes: number;
  expires_at: string;
  url?: string;
  bytes?: number;
  expires_in?: number;
  mime_type?: string;
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface UploadNegotiateResult {
  r2_key: string;
  put_url: string;
  headers: Record<string, string>;
  expires_at: string;
  expires_in?: number;
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface UploadService {
  inline(params: UploadInlineParams, ctx: ServiceContext<UploadGrant>): Promise<UploadEnvelope>;
  negotiate(
    params: UploadNegotiateParams,
    ctx: ServiceContext<UploadGrant>,
  ): Promise<UploadNegotiateResult>;
  confirm(params: UploadConfirmParams, ctx: ServiceContext<UploadGrant>): Promise<UploadEnvelope>;
}
