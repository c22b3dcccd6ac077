// The host services behind `executa dev`, chosen by flags. Every family has an `off` mode that
// answers with its documented code; the offline `memory`/`mock` modes plug in here.
import type { ExecutaHostOptions } from "@anna-ai/executa-host";
import type { FlagDef, FlagValues } from "../cli/args.js";
import { EXIT_USAGE, ExitError } from "../cli/exit-error.js";
import type { CliIo } from "../cli/io.js";

export const SERVICE_FLAGS: readonly FlagDef[] = [
  {
    name: "no-sampling",
    type: "boolean",
    description: "sampling/createMessage fails with -32008 sampling_disabled",
  },
  {
    name: "mock-sampling",
    type: "string",
    value: "<fixture.jsonl>",
    description: "Answer sampling from a mock-answer file",
  },
  {
    name: "sampling-unsupported-format",
    type: "boolean",
    description: "Simulate a model without json_schema support (onUnsupported)",
  },
  { name: "no-agent", type: "boolean", description: "agent/* fails with -32041 agent_not_granted" },
  {
    name: "mock-agent",
    type: "string",
    value: "<fixture.jsonl>",
    description: "Answer agent/* from a mock-answer file",
  },
  {
    name: "storage",
    type: "string",
    value: "<mode>",
    choices: ["off", "memory", "mock", "real"],
    description: "storage/* and files/*: off | memory (default) | mock | real",
  },
  {
    name: "mock-storage",
    type: "string",
    value: "<fixture.jsonl>",
    description: "Mock-answer file for --storage mock",
  },
  {
    name: "storage-scopes",
    type: "string",
    value: "<list>",
    description: "Scopes the storage grant allows (default user,app,tool)",
  },
  {
    name: "no-image",
    type: "boolean",
    description: "image/* fails with -32101 image_not_granted (the default)",
  },
  {
    name: "mock-image",
    type: "string",
    value: "<fixture.jsonl>",
    description: "Answer image/* from a mock-answer file",
  },
  {
    name: "no-upload",
    type: "boolean",
    description: "host/uploadFile fails with -32201 upload_not_granted (the default)",
  },
  {
    name: "mock-upload",
    type: "string",
    value: "<fixture.jsonl>",
    description: "Answer host/uploadFile from a mock-answer file",
  },
  {
    name: "grant",
    type: "string",
    multiple: true,
    value: "<family>",
    description:
      "Simulate the user's grant of a family (sampling, agent, storage, files, image, upload, embeddings)",
  },
  {
    name: "no-grant",
    type: "string",
    multiple: true,
    value: "<family>",
    description: "Simulate a missing user grant for a family",
  },
];

export interface DevRouter {
  factory: ExecutaHostOptions["router"];
  /** One line per family for the banner, e.g. `storage: memory`. */
  summary: Record<string, string>;
  close(): Promise<void>;
}

const NOT_YET = [
  "mock-sampling",
  "mock-agent",
  "mock-storage",
  "mock-image",
  "mock-upload",
] as const;

export async function buildDevRouter(flags: FlagValues, _io: CliIo): Promise<DevRouter> {
  for (const flag of NOT_YET) {
    if (flags[flag] !== undefined) {
      throw new ExitError(
        EXIT_USAGE,
        `--${flag} is not available in this build yet; the offline services arrive with the executa dev issue`,
      );
    }
  }
  if (flags.storage === "real") {
    throw new ExitError(
      EXIT_USAGE,
      "--storage real needs a Nexus server and `anna-app login`, which this build does not have yet; use --storage memory",
    );
  }
  return {
    factory: undefined,
    summary: {
      sampling: "off",
      agent: "off",
      storage: "off",
      image: "off",
      upload: "off",
      embeddings: "off",
    },
    close: async () => {},
  };
}
