// `image/generate` and `image/edit` (and an app window's `image.*`) answered by a Nexus: the
// params go verbatim to `POST /api/v1/copilot/app/image/{generate,edit}` (real-world-cli.md §6
// C7/C8) with the dev `kind=complete` session's token, so the server's images model answers,
// its image quota applies and the images are its blob store's signed URLs. The router's grant,
// per-call caps and per-invoke image budget still run here first.
import type { ImageResult } from "@anna-ai/app-schema";
import type { ImageService, ServiceContext } from "@anna-ai/executa-host";
import type { NexusClient } from "../account/nexus-client.js";
import { copilotPost } from "./copilot-request.js";
import type { CompleteSessions } from "./dev-app-sessions.js";
import type { SessionKeyOf } from "./nexus-sampling.js";

export const IMAGE_PATH = "/api/v1/copilot/app/image";

/** The params as the endpoint reads them: no reverse-correlation fields, which are local. */
function imageBody(params: Record<string, unknown>): Record<string, unknown> {
  const { metadata: _metadata, context: _context, _clientTimeoutS: _timeout, ...body } = params;
  return body;
}

export function nexusImageService(options: {
  client: NexusClient;
  sessions: CompleteSessions;
  keyOf: SessionKeyOf;
}): ImageService {
  const post = (
    method: "generate" | "edit",
    params: Record<string, unknown>,
    ctx: ServiceContext,
  ) => {
    const key = options.keyOf(ctx);
    return copilotPost<ImageResult>(
      options.client,
      "image",
      `${IMAGE_PATH}/${method}`,
      imageBody(params),
      { token: () => options.sessions.token(key), forget: () => options.sessions.forget(key) },
      ctx.signal,
    );
  };
  return {
    generate: (params, ctx) => post("generate", params, ctx),
    edit: (params, ctx) => post("edit", params, ctx),
  };
}
