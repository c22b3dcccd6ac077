// The one call a server's `main` makes: the configuration (already parsed from the env, a file or
// the admin settings) plus the offline fixture it names, loaded and checked up front so a broken
// fixture line fails at start with its file and line, not at the first chat turn.
import { MockFixture } from "@anna-ai/executa-host";
import type { LlmGatewayOptions } from "./create-gateway.js";
import { createLlmGateway } from "./create-gateway.js";
import type { LlmGateway } from "./types.js";

export async function openLlmGateway(
  options: Omit<LlmGatewayOptions, "offlineFixture">,
): Promise<LlmGateway> {
  const file = options.config.offlineFixture;
  const offlineFixture = file === undefined ? undefined : await MockFixture.load(file);
  return createLlmGateway({
    ...options,
    ...(offlineFixture !== undefined ? { offlineFixture } : {}),
  });
}
