// "Test connection" of the admin settings: one tiny request to the chat model of a candidate
// configuration, before anyone's turns depend on it. No retries, a short deadline, no usage
// recorded; the answer says what failed in the provider's words (401: the key, 404: the model or
// the base URL, a refused connection: the server is not there), with secrets redacted.
import type { LlmConfig } from "../config/llm-config.js";
import { createLlmGateway } from "./create-gateway.js";
import { GatewayError } from "./gateway-error.js";
import type { FetchFunction } from "./providers.js";

export const CONNECTION_TEST_TIMEOUT_MS = 20_000;
/** Enough for "OK" from any model, small enough to cost nothing. */
const CONNECTION_TEST_MAX_TOKENS = 16;

export type ConnectionTestResult =
  | { ok: true; provider: string; model: string; latencyMs: number; reply: string }
  | {
      ok: false;
      provider: string;
      model: string;
      error: { code: string; message: string; status?: number; hint: string };
    };

export async function testLlmConnection(
  config: LlmConfig,
  options: { fetch?: FetchFunction; userId: string; timeoutMs?: number },
): Promise<ConnectionTestResult> {
  const gateway = createLlmGateway({
    config: {
      ...config,
      maxRetries: 0,
      timeoutMs: options.timeoutMs ?? CONNECTION_TEST_TIMEOUT_MS,
    },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const { provider, model } = gateway.modelFor("chat");
  try {
    const result = await gateway.complete(
      {
        messages: [{ role: "user", content: "Reply with the single word OK." }],
        maxTokens: CONNECTION_TEST_MAX_TOKENS,
      },
      { account: { userId: options.userId }, purpose: "chat" },
    );
    return {
      ok: true,
      provider: result.provider,
      model: result.model,
      latencyMs: result.latencyMs,
      reply: result.text.slice(0, 200),
    };
  } catch (error) {
    const failure =
      error instanceof GatewayError
        ? error
        : new GatewayError("provider_error", String(error), { provider });
    return {
      ok: false,
      provider,
      model,
      error: {
        code: failure.code,
        message: failure.message,
        ...(failure.status !== undefined ? { status: failure.status } : {}),
        hint: hintFor(failure),
      },
    };
  }
}

function hintFor(error: GatewayError): string {
  if (error.status === 401 || error.status === 403) {
    return "the provider refused the API key: check the key, and that it belongs to this provider";
  }
  if (error.status === 404) {
    return "the provider does not know this path or model: check the base URL (it usually ends in /v1) and the model id";
  }
  if (error.status === 429) return "the provider is rate limiting this key; try again shortly";
  if (error.code === "unreachable") {
    return "nothing answers at the base URL from this server: check the host and port, and that the model server runs";
  }
  if (error.code === "timeout")
    return "no answer in time: is the base URL reachable from the server?";
  if (error.code === "not_configured") return "a setting the provider needs is missing";
  return "see the provider's message above";
}
