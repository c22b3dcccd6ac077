// The host services behind `executa dev`, chosen by flags (Reference L11605–11640, R167): one
// ReverseRpcRouter over the offline services of @anna-ai/executa-host, so the plugin meets the
// same gates, budgets, codes and limits as in production. Flags are checked and fixtures parsed
// before the plugin starts: a bad flag or a broken fixture line is a launch error (exit 2).
import {
  GRANT_FAMILIES,
  createOfflineHostServices,
  type MockFixture,
  type OfflineStorageChoice,
  type RouterProgressListener,
  type RouterSessionFactory,
} from "@anna-ai/executa-host";
import { REAL_MODE_UNAVAILABLE } from "../account/real-mode.js";
import type { FlagValues } from "../cli/args.js";
import { EXIT_USAGE, ExitError, usageError } from "../cli/exit-error.js";
import type { CliIo } from "../cli/io.js";
import { parseAccountFlags } from "./account-flags.js";
import { backgroundDevTokenIssuer } from "./dev-tokens.js";
import { loadFixtures } from "./fixtures.js";
import { parseGrantFlags } from "./grant-flags.js";
import { REAL_MODE_FLAGS, type StorageMode } from "./service-flags.js";

const COMMAND = "executa dev";

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
  /** Where `executa/progress` notifications go (the router drops them until one is set). */
  onProgress(listener: RouterProgressListener): void;
  /** Stops the loopback blob server if it was started. */
  close(): Promise<void>;
}

export async function buildDevRouter(flags: FlagValues, io: CliIo): Promise<DevRouter> {
  for (const flag of REAL_MODE_FLAGS) {
    if (flags[flag] !== undefined) {
      throw new ExitError(EXIT_USAGE, `--${flag} ${REAL_MODE_UNAVAILABLE}; use the mock modes`);
    }
  }
  const storageMode = storageModeOf(flags);
  checkConflicts(flags);
  const grants = parseGrantFlags(flags);
  const accounts = parseAccountFlags(flags.account);
  const fixtures = await loadFixtures(flags, io.cwd);

  const mockLabel = (flag: string) => `mock (${String(flags[flag])})`;
  const summary = {} as Record<BannerFamily, string>;
  const hints: string[] = [];

  // Sampling: off unless a fixture is given; there are no accounts (real mode) in this build.
  summary.sampling = fixtures.sampling ? mockLabel("mock-sampling") : "off";
  if (flags["sampling-unsupported-format"] === true) summary.sampling += ", no json_schema";
  if (!fixtures.sampling && flags["no-sampling"] !== true) {
    hints.push("sampling is off: --mock-sampling <fixture.jsonl> answers it offline");
  }
  summary.agent = fixtures.agent ? mockLabel("mock-agent") : "off";
  const storage: OfflineStorageChoice =
    storageMode === "memory"
      ? { mode: "memory" }
      : storageMode === "mock"
        ? { mode: "mock", fixture: fixtures.storage as MockFixture }
        : { mode: "off", reason: "off (--storage off); use --storage memory (the default)" };
  summary.storage =
    storageMode === "memory"
      ? "memory"
      : storageMode === "mock"
        ? mockLabel("mock-storage")
        : "off";
  summary.image = fixtures.image ? mockLabel("mock-image") : "off";
  summary.upload = fixtures.upload ? mockLabel("mock-upload") : "off";
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
  const { router, close } = createOfflineHostServices({
    grants: grants.policy,
    tokens: backgroundDevTokenIssuer(),
    onProgress: (event) => progress?.(event),
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
          fixtureHint: `a line {"ns":"web","method":"search","result":{"results":[…]}} in a --mock-web <fixture.jsonl> file`,
        },
    credentials: accounts,
  });
  const notGranted = GRANT_FAMILIES.filter((f) => !grants.granted.has(f));
  return {
    factory: router,
    summary,
    hints,
    notGranted,
    secretValues: Object.values(accounts).flatMap((list) =>
      list.flatMap((account) => (account.access_token === undefined ? [] : [account.access_token])),
    ),
    onProgress: (listener) => (progress = listener),
    close,
  };
}

function storageModeOf(flags: FlagValues): StorageMode {
  const given = flags.storage as StorageMode | undefined;
  const fixture = flags["mock-storage"];
  if (given === "real") {
    throw new ExitError(
      EXIT_USAGE,
      `--storage real ${REAL_MODE_UNAVAILABLE}; use --storage memory`,
    );
  }
  if (given === "mock" && fixture === undefined) {
    throw usageError("--storage mock needs --mock-storage <fixture.jsonl>", COMMAND);
  }
  if (fixture !== undefined && given !== undefined && given !== "mock") {
    throw usageError(`--mock-storage goes with --storage mock, not --storage ${given}`, COMMAND);
  }
  if (fixture !== undefined) return "mock";
  return given ?? "memory";
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
