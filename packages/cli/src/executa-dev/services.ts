// The host services behind `executa dev`, chosen by flags (Reference L11605–11640, R167): one
// ReverseRpcRouter over the offline services of @anna-ai/executa-host, so the plugin meets the
// same gates, budgets, codes and limits as in production. Flags are checked and fixtures parsed
// before the plugin starts: a bad flag or a broken fixture line is a launch error (exit 2).
import {
  GRANT_FAMILIES,
  LoopbackBlobServer,
  ReverseRpcRouter,
  createMemoryFilesService,
  createMemoryStorageService,
  createMockFilesService,
  createMockStorageService,
  type HostServices,
  type RouterSessionFactory,
} from "@anna-ai/executa-host";
import type { FlagValues } from "../cli/args.js";
import { EXIT_USAGE, ExitError, usageError } from "../cli/exit-error.js";
import type { CliIo } from "../cli/io.js";
import { loadFixtures } from "./fixtures.js";
import { parseGrantFlags } from "./grant-flags.js";
import { lazyBlobServer, lazyService } from "./lazy-blob.js";
import { offFilesService, offService } from "./off-services.js";
import { REAL_MODE_FLAGS, type StorageMode } from "./service-flags.js";

export { SERVICE_FLAGS } from "./service-flags.js";

const COMMAND = "executa dev";
const REAL_MODE_UNAVAILABLE =
  "needs a Nexus server and `anna-app login`, not available in this build";

/** The families the banner lists, in the Reference's order. */
export const BANNER_FAMILIES = [
  "sampling",
  "agent",
  "storage",
  "image",
  "upload",
  "embeddings",
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
  const fixtures = await loadFixtures(flags, io.cwd);

  const blob = lazyBlobServer(() => new LoopbackBlobServer());
  const services: Partial<HostServices> = {};
  const summary = {} as Record<BannerFamily, string>;
  const hints: string[] = [];
  const label = (file: string | undefined) => `mock (${file ?? "?"})`;

  // Sampling: off unless a fixture is given; there are no accounts (real mode) in this build.
  if (fixtures.sampling) {
    services.sampling = pending("sampling", "--mock-sampling");
    summary.sampling = label(flags["mock-sampling"] as string);
    if (flags["sampling-unsupported-format"] === true)
      summary.sampling += " json_schema-unsupported";
  } else {
    services.sampling = offService("sampling", "pass --mock-sampling <fixture.jsonl> to answer it");
    summary.sampling = "off";
    if (flags["no-sampling"] !== true) {
      hints.push("sampling is off: --mock-sampling <fixture.jsonl> answers it offline");
    }
  }

  if (fixtures.agent) {
    services.agent = pending("agent", "--mock-agent");
    summary.agent = label(flags["mock-agent"] as string);
  } else {
    services.agent = offService("agent", "pass --mock-agent <fixture.jsonl> to answer it");
    summary.agent = "off";
  }

  switch (storageMode) {
    case "memory": {
      const storage = createMemoryStorageService();
      services.storage = storage;
      services.files = lazyService<HostServices["files"]>(blob, FILES_METHODS, (server) =>
        createMemoryFilesService({ blobServer: server, storage }),
      );
      summary.storage = "memory";
      break;
    }
    case "mock":
      services.storage = createMockStorageService(fixtures.storage!);
      services.files = createMockFilesService(fixtures.storage!);
      summary.storage = label(flags["mock-storage"] as string);
      break;
    default:
      services.storage = offService("storage", "use --storage memory (the default)");
      services.files = offFilesService("use --storage memory (the default)");
      summary.storage = "off";
  }

  if (fixtures.image) {
    services.image = pending("image", "--mock-image");
    summary.image = label(flags["mock-image"] as string);
  } else {
    services.image = offService("image", "pass --mock-image <fixture.jsonl> to answer it");
    summary.image = "off";
  }

  if (fixtures.upload) {
    services.upload = pending("upload", "--mock-upload");
    summary.upload = label(flags["mock-upload"] as string);
  } else {
    services.upload = offService("upload", "pass --mock-upload <fixture.jsonl> to answer it");
    summary.upload = "off";
  }

  if (flags["no-embeddings"] === true) {
    services.embeddings = offService("embeddings", "drop --no-embeddings for synthetic vectors");
    summary.embeddings = "off";
  } else if (fixtures.embeddings) {
    services.embeddings = pending("embeddings", "--mock-embeddings");
    summary.embeddings = label(flags["mock-embeddings"] as string);
  } else {
    services.embeddings = offService(
      "embeddings",
      "synthetic vectors arrive with the offline services",
    );
    summary.embeddings = "synthetic";
  }

  const notGranted = GRANT_FAMILIES.filter((f) => !grants.granted.has(f));
  const router = new ReverseRpcRouter({ services, grants: grants.policy });
  return {
    factory: router,
    summary,
    hints,
    notGranted,
    close: () => blob.close(),
  };
}

const FILES_METHODS = ["uploadBegin", "uploadComplete", "downloadUrl", "list", "delete"] as const;

/** Placeholder until the offline service of this family lands in @anna-ai/executa-host. */
function pending(family: string, flag: string): never {
  throw new ExitError(EXIT_USAGE, `${flag} (${family}) is not available in this build yet`);
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
