// `host/uploadFile` answered by a Nexus (spec L11633–11637, T28): negotiate and confirm go to
// `/api/v1/copilot/app/upload/{negotiate,confirm}`, inline to `…/inline`, with the dev complete
// session's token, so the bytes land in the server's blob store under the developer's storage
// quota. The plugin PUTs negotiated bytes to the URL the server hands out, as in production;
// the router keeps its per-invoke limits and checks that a confirmed key was issued here.
import type { HostUploadFileResult, HostUploadNegotiateResult } from "@anna-ai/app-schema";
import type { UploadService } from "@anna-ai/executa-host";
import type { NexusClient } from "../account/nexus-client.js";
import { copilotPost } from "./copilot-request.js";
import type { CompleteSessions } from "./dev-app-sessions.js";
import type { SessionKeyOf } from "./nexus-sampling.js";

export const UPLOAD_PATH = "/api/v1/copilot/app/upload";

export function nexusUploadService(options: {
  client: NexusClient;
  sessions: CompleteSessions;
  keyOf: SessionKeyOf;
}): UploadService {
  const post = <T>(path: string, body: unknown, ctx: Parameters<SessionKeyOf>[0]) => {
    const key = options.keyOf(ctx);
    return copilotPost<T>(
      options.client,
      "upload",
      `${UPLOAD_PATH}/${path}`,
      body,
      { token: () => options.sessions.token(key), forget: () => options.sessions.forget(key) },
      ctx.signal,
    );
  };
  return {
    inline: (p, ctx) =>
      post<HostUploadFileResult>(
        "inline",
        {
          filename: p.filename,
          mime_type: p.mime_type,
          content_b64: p.content_b64,
          purpose: p.purpose,
        },
        ctx,
      ),
    negotiate: (p, ctx) =>
      post<HostUploadNegotiateResult>(
        "negotiate",
        {
          filename: p.filename,
          mime_type: p.mime_type,
          expected_bytes: p.expected_bytes,
          purpose: p.purpose,
        },
        ctx,
      ),
    confirm: (p, ctx) => post<HostUploadFileResult>("confirm", { r2_key: p.r2_key }, ctx),
  };
}
