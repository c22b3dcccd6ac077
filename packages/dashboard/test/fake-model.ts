// The LLM gateway of the dashboard's browser tests: the agent package's fake OpenAI-compatible
// server over real HTTP, one model, no retries (a test's scripted answer is used once).
import { createLlmGateway, parseLlmConfig } from "@anna-ai/agent";
import type { FakeProvider } from "@anna-ai/agent/test-kit";

export function fakeModelGateway(fake: FakeProvider): ReturnType<typeof createLlmGateway> {
  return createLlmGateway({
    config: parseLlmConfig({
      provider: "openai-compatible",
      baseUrl: fake.baseUrl,
      model: "llama-test",
      apiKey: "sk-test",
      maxRetries: 0,
    }),
  });
}
