// `sampling/createMessage` (and an app window's `llm.complete`) answered by a Nexus: the request
// goes to `POST /api/v1/copilot/app/complete` with a dev `kind=complete` session's token, so the
// server's gateway answers, its quotas apply and the usage lands in its ledger under the dev app
// (spec L11605–11610, L7526–7545). The router's per-invoke budgets still run here first.
import type { SamplingCreateMessageResult, SamplingRequest } from "@anna-ai/app-schema";
import type { SamplingService, ServiceContext } from "@anna-ai/executa-host";
import type { NexusClient } from "../account/nexus-client.js";
import { copilotPost } from "./copilot-request.js";
import type { CompleteSessions } from "./dev-app-sessions.js";

export const COMPLETE_PATH = "/api/v1/copilot/app/complete";

/** Which shared complete session a call uses: one per process, or one per app window. */
export type SessionKeyOf = (ctx: ServiceContext) => string;

/** The request as the endpoint reads it: no reverse-correlation fields, which are local. */
export function completeBody(request: SamplingRequest): Record<string, unknown> {
  const { metadata: _metadata, context: _context, clientTimeoutS: _timeout, ...body } = request;
  return body;
}

export function nexusSamplingService(options: {
  client: NexusClient;
  sessions: CompleteSessions;
  keyOf: SessionKeyOf;
}): SamplingService {
  return {
    createMessage(request, ctx) {
      const key = options.keyOf(ctx);
      return copilotPost<SamplingCreateMessageResult>(
        options.client,
        "sampling",
        COMPLETE_PATH,
        completeBody(request),
        { token: () => options.sessions.token(key), forget: () => options.sessions.forget(key) },
        ctx.signal,
      );
    },
  };
}
