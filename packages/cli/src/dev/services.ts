// The host services behind the harness: ONE set serves the iframe (through the dispatcher) and
// the plugins (through the reverse-RPC router), so an app and its executa see the same storage
// and the same LLM answers. LLM modes (A7, L7526–7629): `mock` (the default: synthetic answers,
// or a `--mock-llm` fixture), `off` (`--no-llm`: llm.*/agent.* answer `llm_disabled`) and `real`
// (the saved account's Nexus, through dev app sessions: src/real-copilot). `image.*`
// is always the mock: synthetic PNGs as `data:` URLs (the bundle CSP's img-src allows them),
// or the `ns:"image"` lines of the same `--mock-llm` file. `web.*` fetches for real through the
// SSRF guard; `web.search`/`image_search` answer from that file's `ns:"web"` lines. The
// accounts `credentials.*` sees come from `manifest.dev.credentials` (dev-credentials.ts).
import {
  ReverseRpcRouter,
  createAllowAllGrantPolicy,
  createOfflineHostServices,
  MockFixture,
  type HostServices,
  type OfflineCredentialsConfig,
} from "@anna-ai/executa-host";
import { backgroundDevTokenIssuer } from "../executa-dev/dev-tokens.js";

/** `real`: the saved account's Nexus answers llm.* and agent.* (L7526–7545). */
export type DevLlmMode = "mock" | "off" | "real";

export interface DevServices {
  services: Partial<HostServices>;
  router: ReverseRpcRouter;
  /** As the banner prints it: `mock (synthetic)`, `mock (fixtures/llm.jsonl)`, `off`. */
  llmLabel: string;
  /** As the banner prints them: where `web.search` answers come from, the configured accounts. */
  webLabel: string;
  credentialsLabel: string;
  /** Stops the loopback blob server behind `files.*` and `web.image_fetch`, if it started. */
  close(): Promise<void>;
}

export async function buildDevServices(options: {
  llm: DevLlmMode;
  mockLlmFixture?: string;
  /** `manifest.dev.credentials`: provider → accounts. */
  credentials?: OfflineCredentialsConfig;
  /** Tests only: let `web.fetch` reach 127.0.0.1 (the SSRF guard blocks loopback otherwise). */
  allowLoopbackFetch?: boolean;
  /** How the labels show the fixture's path (the banner: relative to the cwd); default as given. */
  showPath?: (file: string) => string;
  /** `--storage aps`: storage and files of the server; default the in-memory store. */
  storage?: { storage: HostServices["storage"]; files: HostServices["files"] };
  /** `--llm real`: sampling and agent of the server, and the banner's label for them. */
  realLlm?: { sampling: HostServices["sampling"]; agent: HostServices["agent"]; label: string };
}): Promise<DevServices> {
  const fixture =
    options.mockLlmFixture === undefined
      ? undefined
      : await MockFixture.load(options.mockLlmFixture);
  // Without a fixture the mock services answer synthetically, so `llm.complete` works offline.
  const mock = fixture === undefined ? {} : { fixture };
  const llm = options.llm === "off" ? { mode: "off" as const } : { mode: "mock" as const, ...mock };
  if (options.llm === "real" && options.realLlm === undefined) {
    throw new Error("buildDevServices: --llm real needs the opened services (realLlm)");
  }
  // `anna-app dev` has never served `host/uploadFile` to plugins; the family stays out.
  const offline = createOfflineHostServices({
    grants: createAllowAllGrantPolicy(),
    storage:
      options.storage === undefined ? { mode: "memory" } : { mode: "provided", ...options.storage },
    sampling: llm,
    agent: llm,
    embeddings: { mode: "synthetic" },
    image: { mode: "mock", ...mock, dataUrls: true },
    upload: false,
    web: {
      ...mock,
      fixtureHint: `a line {"ns":"web","method":"search","result":{"results":[…]}} in the --mock-llm fixture, or manifest.dev.mocks["web.search"]`,
      ...(options.allowLoopbackFetch === true ? { allowLoopback: true } : {}),
    },
    credentials: options.credentials ?? {},
  });
  // The real LLM replaces the mock under the same router gates; image.* stays the mock.
  const services: Partial<HostServices> =
    options.llm === "real" && options.realLlm !== undefined
      ? { ...offline.services, sampling: options.realLlm.sampling, agent: options.realLlm.agent }
      : offline.services;
  const router = new ReverseRpcRouter({
    services,
    grants: createAllowAllGrantPolicy(),
    tokens: backgroundDevTokenIssuer(),
  });
  const shownFixture =
    options.mockLlmFixture === undefined
      ? undefined
      : (options.showPath ?? ((file: string) => file))(options.mockLlmFixture);
  const llmLabel =
    options.llm === "off"
      ? "off (--no-llm)"
      : options.llm === "real"
        ? (options.realLlm?.label ?? "real")
        : shownFixture !== undefined
          ? `mock (${shownFixture})`
          : "mock (synthetic)";
  const webLines =
    (fixture?.forMethod("web/search").length ?? 0) +
    (fixture?.forMethod("web/image_search").length ?? 0);
  const webLabel =
    webLines > 0
      ? `fetch live (SSRF-guarded); search from ${shownFixture} (${webLines === 1 ? "1 web line" : `${webLines} web lines`})`
      : 'fetch live (SSRF-guarded); search needs {"ns":"web"} lines in a --mock-llm file';
  const accounts = Object.entries(options.credentials ?? {});
  const credentialsLabel =
    accounts.length === 0
      ? "none (manifest.dev.credentials)"
      : accounts.map(([provider, list]) => `${provider} (${list.length})`).join(", ");
  return { services, router, llmLabel, webLabel, credentialsLabel, close: offline.close };
}
