// The host services behind `executa dev`, chosen by flags (Reference L11605–11640, R167): one
// ReverseRpcRouter over the offline services of @anna-ai/executa-host, so the plugin meets the
// same gates, budgets, codes and limits as in production. Flags are checked and fixtures parsed
// before the plugin starts: a bad flag or a broken fixture line is a launch error (exit 2).
import {
  GRANT_FAMILIES,
  ReverseRpcRouter,
  createOfflineHostServices,
  type HostServices,
  type MockFixture,
  type OfflineStorageChoice,
  type RouterProgressListener,
  type RouterSessionFactory,
  type SamplingService,
  type StorageService,
} from "@anna-ai/executa-host";
import type { FlagValues } from "../cli/args.js";
import { usageError } from "../cli/exit-error.js";
import type { CliIo } from "../cli/io.js";
import { parseAccountFlags } from "./account-flags.js";
import { backgroundDevTokenIssuer } from "./dev-tokens.js";
import { loadFixtures } from "./fixtures.js";
import { parseGrantFlags } from "./grant-flags.js";
import { openRealStorage, type RealStorage } from "../real-storage/open-real-storage.js";
import { type StorageMode } from "./service-flags.js";
import { modesNotice, resolveCopilotModes, type FamilyMode } from "./copilot-modes.js";
import { openRealCopilot } from "../real-copilot/open-real-copilot.js";
import { serviceSwitch, WEB_FIXTURE_HINT, type ServiceSwitch } from "./service-switch.js";

const COMMAND = "executa dev";
const str = (v: FlagValues[string]) => (typeof v === "string" ? v : undefined);

/** The families the banner lists, in the Reference's order. */
export const BANNER_FAMILIES = [
  "sampling",
  "agent",
  "storage",
  "image",
  "upload",
  "embeddings",
  "web",
  "credentials",
] as const;
export type BannerFamily = (typeof BANNER_FAMILIES)[number];

export interface DevRouter {
  factory: RouterSessionFactory;
  /** Family → its mode as the banner prints it, e.g. `memory`, `mock (fixtures/s.jsonl)`. */
  summary: Record<BannerFamily, string>;
  /** How to turn on what is off, for the banner. */
  hints: string[];
  /** Families withdrawn by --grant/--no-grant, for the banner. */
  notGranted: string[];
  /** Values a recording must hide wherever they appear: the `--account …,token=` tokens. */
  secretValues: string[];
  /** Told the secrets that arrive later (an account a real switch opened): add them to redactors. */
  onSecrets(listener: (values: readonly string[]) => void): void;
  /** Where `executa/progress` notifications go (the router drops them until one is set). */
  onProgress(listener: RouterProgressListener): void;
  /**
   * The `storage/*` service the plugin's calls reach (memory, mock or real), for the inspector's
   * storage panel; undefined with `--storage off`.
   */
  storage: StorageService | undefined;
  /** Changes a family's mode while the run goes on (the inspector's services panel). */
  switch: ServiceSwitch;
  /** Stops the loopback blob server if it was started, and the switched families' services. */
  close(): Promise<void>;
}

export interface DevRouterTarget {
  /** The plugin's tool id: `--storage real` mints its storage token for it. */
  toolId: string;
  /**
   * Puts another sampling service in front of the one the flags chose (`executa mcp` asks the
   * MCP client's model when the client offers sampling); it still sits behind the router.
   */
  wrapSampling?: (chosen: SamplingService | undefined) => SamplingService;
}

export async function buildDevRouter(
  flags: FlagValues,
  io: CliIo,
  target: DevRouterTarget,
): Promise<DevRouter> {
  const storageMode = storageModeOf(flags);
  if (storageMode !== "real" && flags["storage-account"] !== undefined) {
    throw usageError("--storage-account goes with --storage real", COMMAND);
  }
  checkConflicts(flags);
  const grants = parseGrantFlags(flags);
  const accounts = parseAccountFlags(flags.account);
  const fixtures = await loadFixtures(flags, io.cwd);
  const real =
    storageMode === "real" ? await openExecutaStorage(flags, io, target, grants) : undefined;
  const modes = await resolveCopilotModes({
    flags,
    env: io.env,
    toolId: target.toolId,
    command: COMMAND,
    warn: (line) => void io.stderr.write(`warning: ${line}\n`),
  });
  const anyReal = Object.values(modes).some((m) => m.mode === "real" || m.fellBack === true);
  if (anyReal) io.stderr.write(`executa dev: ${modesNotice(modes)}\n`);
  const realLabel = (m: FamilyMode) => `real (${m.real?.host}, app ${m.real?.appSlug})`;

  const mockLabel = (flag: string) => `mock (${String(flags[flag])})`;
  const summary = {} as Record<BannerFamily, string>;
  const hints: string[] = [];

  summary.sampling =
    modes.sampling.mode === "real"
      ? realLabel(modes.sampling)
      : fixtures.sampling
        ? mockLabel("mock-sampling")
        : "off";
  if (flags["sampling-unsupported-format"] === true) summary.sampling += ", no json_schema";
  if (modes.sampling.mode === "off" && flags["no-sampling"] !== true) {
    hints.push(
      "sampling is off: --mock-sampling <fixture.jsonl> answers it offline; after anna-app login it goes to your Nexus",
    );
  }
  summary.agent =
    modes.agent.mode === "real"
      ? realLabel(modes.agent)
      : fixtures.agent
        ? mockLabel("mock-agent")
        : "off";
  const storage: OfflineStorageChoice =
    real !== undefined
      ? { mode: "provided", storage: real.storage, files: real.files }
      : storageMode === "memory"
        ? { mode: "memory" }
        : storageMode === "mock"
          ? { mode: "mock", fixture: fixtures.storage as MockFixture }
          : { mode: "off", reason: "off (--storage off); use --storage memory (the default)" };
  summary.storage =
    real !== undefined
      ? real.label
      : storageMode === "memory"
        ? "memory"
        : storageMode === "mock"
          ? mockLabel("mock-storage")
          : "off";
  summary.image =
    modes.image.mode === "real"
      ? realLabel(modes.image)
      : fixtures.image
        ? mockLabel("mock-image")
        : "off";
  summary.upload =
    modes.upload.mode === "real"
      ? realLabel(modes.upload)
      : fixtures.upload
        ? mockLabel("mock-upload")
        : "off";
  // Embeddings have no upstream flag: synthetic vectors by default (D-cli-xdev-2).
  const noEmbeddings = flags["no-embeddings"] === true;
  summary.embeddings = noEmbeddings
    ? "off"
    : fixtures.embeddings
      ? mockLabel("mock-embeddings")
      : "synthetic";
  // Web: fetch is always real and SSRF-guarded (loopback included: the policy cannot be turned
  // off, L11389); search answers only from a --mock-web file, there is no provider offline.
  const noWeb = flags["no-web"] === true;
  summary.web = noWeb
    ? "off"
    : `fetch live (SSRF-guarded), search ${fixtures.web ? mockLabel("mock-web") : "off"}`;
  const providers = Object.entries(accounts);
  summary.credentials =
    providers.length === 0
      ? "no accounts"
      : providers.map(([provider, list]) => `${provider} (${list.length})`).join(", ");

  let progress: RouterProgressListener | undefined;
  // Its own router is unused: the one below serves the real families beside the offline ones.
  const offline = createOfflineHostServices({
    grants: grants.policy,
    storage,
    sampling: fixtures.sampling
      ? {
          mode: "mock",
          fixture: fixtures.sampling,
          unsupportedFormat: flags["sampling-unsupported-format"] === true,
        }
      : { mode: "off" },
    agent: fixtures.agent ? { mode: "mock", fixture: fixtures.agent } : { mode: "off" },
    image: fixtures.image ? { mode: "mock", fixture: fixtures.image } : { mode: "off" },
    upload: fixtures.upload ? { mode: "mock", fixture: fixtures.upload } : { mode: "off" },
    embeddings: noEmbeddings
      ? { mode: "off" }
      : fixtures.embeddings
        ? { mode: "mock", fixture: fixtures.embeddings }
        : { mode: "synthetic" },
    web: noWeb
      ? false
      : {
          ...(fixtures.web ? { fixture: fixtures.web } : {}),
          fixtureHint: WEB_FIXTURE_HINT,
        },
    credentials: accounts,
  });
  // The real families replace their offline service under the same router gates and budgets.
  const realServices: Partial<HostServices> = {};
  for (const family of ["sampling", "agent", "image", "upload"] as const) {
    const opened = modes[family].real;
    if (modes[family].mode === "real" && opened !== undefined) {
      Object.assign(realServices, { [family]: opened[family] });
    }
  }
  const services: Partial<HostServices> = { ...offline.services, ...realServices };
  if (target.wrapSampling !== undefined) services.sampling = target.wrapSampling(services.sampling);
  const router = new ReverseRpcRouter({
    services,
    grants: grants.policy,
    tokens: backgroundDevTokenIssuer(),
    onProgress: (event) => progress?.(event),
  });
  const secretListeners = new Set<(values: readonly string[]) => void>();
  const secretValues: string[] = [];
  const switcher = serviceSwitch({
    services,
    summary,
    grants: grants.policy,
    cwd: io.cwd,
    samplingUnsupportedFormat: flags["sampling-unsupported-format"] === true,
    ...(target.wrapSampling ? { wrapSampling: target.wrapSampling } : {}),
    // The inspector's "to your Nexus": the same opening as the flags', for the account and app
    // the page names (default: --sampling-account's, or the current one; --app-slug's app).
    openReal: (choice) =>
      openRealCopilot({
        env: io.env,
        command: COMMAND,
        account: choice.account ?? str(flags["sampling-account"]),
        appSlug: choice.appSlug ?? str(flags["app-slug"]),
        toolId: target.toolId,
        warn: (line) => void io.stderr.write(`warning: ${line}\n`),
      }),
    addSecrets: (values) => {
      secretValues.push(...values);
      for (const listener of secretListeners) listener(values);
    },
  });
  const notGranted = GRANT_FAMILIES.filter((f) => !grants.granted.has(f));
  return {
    factory: router,
    summary,
    hints,
    notGranted,
    secretValues: [
      ...Object.values(accounts).flatMap((list) =>
        list.flatMap((account) =>
          account.access_token === undefined ? [] : [account.access_token],
        ),
      ),
      ...(real?.secretValues ?? []),
      ...Object.values(modes).flatMap((m) => m.real?.secretValues ?? []),
      ...secretValues,
    ],
    onSecrets: (listener) => void secretListeners.add(listener),
    onProgress: (listener) => (progress = listener),
    // With --storage off the service only refuses: the inspector says so instead of showing it.
    storage: storage.mode === "off" ? undefined : services.storage,
    switch: switcher,
    close: async () => {
      await switcher.close();
      await offline.close();
    },
  };
}

function storageModeOf(flags: FlagValues): StorageMode {
  const given = flags.storage as StorageMode | undefined;
  const fixture = flags["mock-storage"];
  if (given === "mock" && fixture === undefined) {
    throw usageError("--storage mock needs --mock-storage <fixture.jsonl>", COMMAND);
  }
  if (fixture !== undefined && given !== undefined && given !== "mock") {
    throw usageError(`--mock-storage goes with --storage mock, not --storage ${given}`, COMMAND);
  }
  if (fixture !== undefined) return "mock";
  return given ?? "memory";
}

/**
 * `--storage real`: the saved account of `--storage-account`, else `--sampling-account`, else
 * the current one; the token's scopes are `--storage-scopes` (default user, app, tool).
 */
async function openExecutaStorage(
  flags: FlagValues,
  io: CliIo,
  target: DevRouterTarget,
  grants: ReturnType<typeof parseGrantFlags>,
): Promise<RealStorage> {
  const account = (flags["storage-account"] ?? flags["sampling-account"]) as string | undefined;
  return openRealStorage({
    env: io.env,
    command: COMMAND,
    account,
    appSlug: flags["app-slug"] as string | undefined,
    toolId: target.toolId,
    allowedScopes: grants.storageScopes as ("user" | "app" | "tool")[],
    warn: (line) => void io.stderr.write(`warning: ${line}\n`),
  });
}

function checkConflicts(flags: FlagValues): void {
  const pairs: Array<[string, string]> = [
    ["no-sampling", "mock-sampling"],
    ["no-agent", "mock-agent"],
    ["no-image", "mock-image"],
    ["no-upload", "mock-upload"],
    ["no-embeddings", "mock-embeddings"],
    ["no-web", "mock-web"],
  ];
  for (const [off, mock] of pairs) {
    if (flags[off] !== undefined && flags[mock] !== undefined) {
      throw usageError(`use either --${off} or --${mock}, not both`, COMMAND);
    }
  }
  if (flags["sampling-unsupported-format"] === true && flags["mock-sampling"] === undefined) {
    throw usageError(
      "--sampling-unsupported-format needs --mock-sampling <fixture.jsonl>: sampling is off otherwise",
      COMMAND,
    );
  }
}
