// The host services behind the harness: ONE set serves the iframe (through the dispatcher) and
// the plugins (through the reverse-RPC router), so an app and its executa see the same storage
// and the same LLM answers. LLM modes (A7): `mock` (the default: synthetic answers, or a
// `--mock-llm` fixture) and `off` (`--no-llm`: llm.*/agent.* answer `llm_disabled`). `image.*`
// is always the mock: synthetic PNGs as `data:` URLs (the bundle CSP's img-src allows them),
// or the `ns:"image"` lines of the same `--mock-llm` file.
import {
  createAllowAllGrantPolicy,
  createMemoryStorageService,
  createOfflineAgentService,
  createOfflineEmbeddingsService,
  createOfflineImageService,
  createOfflineSamplingService,
  MockFixture,
  ReverseRpcRouter,
  type HostServices,
} from "@anna-ai/executa-host";
import { backgroundDevTokenIssuer } from "../executa-dev/dev-tokens.js";

export type DevLlmMode = "mock" | "off";

export interface DevServices {
  services: Partial<HostServices>;
  router: ReverseRpcRouter;
  /** As the banner prints it: `mock (synthetic)`, `mock (fixtures/llm.jsonl)`, `off`. */
  llmLabel: string;
}

export async function buildDevServices(options: {
  llm: DevLlmMode;
  mockLlmFixture?: string;
}): Promise<DevServices> {
  const fixture =
    options.mockLlmFixture === undefined
      ? undefined
      : await MockFixture.load(options.mockLlmFixture);
  // Without a fixture the mock services answer synthetically, so `llm.complete` works offline.
  const mock = fixture === undefined ? {} : { fixture };
  const sampling = createOfflineSamplingService(
    options.llm === "off" ? { mode: "off" } : { mode: "mock", ...mock },
  );
  const agent = createOfflineAgentService(
    options.llm === "off" ? { mode: "off" } : { mode: "mock", ...mock },
  );
  const services: Partial<HostServices> = {
    storage: createMemoryStorageService(),
    sampling,
    agent,
    embeddings: createOfflineEmbeddingsService({ mode: "synthetic" }),
    image: createOfflineImageService({ mode: "mock", ...mock }),
  };
  const router = new ReverseRpcRouter({
    services: services as HostServices,
    grants: createAllowAllGrantPolicy(),
    tokens: backgroundDevTokenIssuer(),
  });
  const llmLabel =
    options.llm === "off"
      ? "off (--no-llm)"
      : options.mockLlmFixture !== undefined
        ? `mock (${options.mockLlmFixture})`
        : "mock (synthetic)";
  return { services, router, llmLabel };
}
