// `host/uploadFile` (T28, R61–R63): one wire method, three modes. The router checks purposes,
// per-file and per-invoke limits and that a confirmed `r2_key` was issued to this invoke; the
// service checks MIME types, stores bytes and signs URLs.
import type {
  HostUploadConfirmParams,
  HostUploadFileResult,
  HostUploadInlineParams,
  HostUploadNegotiateParams,
  HostUploadNegotiateResult,
} from "@anna-ai/app-schema";
import type { UploadGrant } from "./grants.js";
import type { ServiceContext } from "./service-context.js";

/** `purpose` is filled in by the router (default `user_artifact`). */
export type WithPurpose<P> = P & { purpose: string };

type Ctx = ServiceContext<UploadGrant>;

export interface UploadService {
  inline(params: WithPurpose<HostUploadInlineParams>, ctx: Ctx): Promise<HostUploadFileResult>;
  /** `expected_bytes` is set from the SDK's `size_bytes` when only that was sent (Z23). */
  negotiate(
    params: WithPurpose<HostUploadNegotiateParams>,
    ctx: Ctx,
  ): Promise<HostUploadNegotiateResult>;
  confirm(params: HostUploadConfirmParams, ctx: Ctx): Promise<HostUploadFileResult>;
}
