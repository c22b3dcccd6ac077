// The flags that choose how `executa dev` answers each reverse-RPC family (Reference
// L11605–11640, R167). One table, so --help, parsing and the banner agree.
import type { FlagDef } from "../cli/args.js";

/** `--storage` modes, in the order the Reference lists them. */
export const STORAGE_MODES = ["off", "memory", "mock", "real"] as const;
export type StorageMode = (typeof STORAGE_MODES)[number];

/** Storage scopes a plugin may name (H14); `app` only applies to invokes that come from an app. */
export const STORAGE_SCOPE_NAMES = ["user", "app", "tool"] as const;

export const SERVICE_FLAGS: readonly FlagDef[] = [
  {
    name: "no-sampling",
    type: "boolean",
    description:
      "sampling/createMessage fails with -32008 (sampling disabled); the default without a saved account",
  },
  {
    name: "mock-sampling",
    type: "string",
    value: "<fixture.jsonl>",
    description:
      "Answer sampling from a mock-answer file; unmatched calls get a deterministic synthetic reply",
  },
  {
    name: "sampling-unsupported-format",
    type: "boolean",
    description:
      "Simulate a model without json_schema support (onUnsupported: -32010 or a downgrade)",
  },
  {
    name: "no-agent",
    type: "boolean",
    description:
      "agent/* fails with -32041 (agent not granted); the default without a saved account",
  },
  {
    name: "mock-agent",
    type: "string",
    value: "<fixture.jsonl>",
    description: "Answer agent/session.* and agent/complete from a mock-answer file",
  },
  {
    name: "storage",
    type: "string",
    value: "<mode>",
    choices: STORAGE_MODES,
    description:
      "storage/* and files/*: memory (default; files PUT/GET on a loopback URL), off (-32021), mock, real (the saved account's Nexus)",
  },
  {
    name: "mock-storage",
    type: "string",
    value: "<fixture.jsonl>",
    description: "Mock-answer file for storage/* and files/* (implies --storage mock)",
  },
  {
    name: "storage-scopes",
    type: "string",
    value: "<list>",
    description:
      "Scopes the storage grant (and with --storage real the minted token) allows, from user,app,tool (default all); app only applies to invokes from an app, never to executa dev's own",
  },
  {
    name: "no-image",
    type: "boolean",
    description: "image/* fails with -32101 (image not granted); the default",
  },
  {
    name: "mock-image",
    type: "string",
    value: "<fixture.jsonl>",
    description:
      "Answer image/generate and image/edit from a mock-answer file; unmatched calls get a synthetic image",
  },
  {
    name: "no-upload",
    type: "boolean",
    description: "host/uploadFile fails with -32201 (upload not granted); the default",
  },
  {
    name: "mock-upload",
    type: "string",
    value: "<fixture.jsonl>",
    description:
      "Answer host/uploadFile from a mock-answer file; unmatched calls are stored and served on loopback",
  },
  {
    name: "no-embeddings",
    type: "boolean",
    description: "embeddings/create fails with -32507 (default: deterministic synthetic vectors)",
  },
  {
    name: "mock-embeddings",
    type: "string",
    value: "<fixture.jsonl>",
    description: "Answer embeddings/create from a mock-answer file, synthetic vectors otherwise",
  },
  {
    name: "no-web",
    type: "boolean",
    description: "web/* fails with -32527 (no web service on this host)",
  },
  {
    name: "mock-web",
    type: "string",
    value: "<fixture.jsonl>",
    description:
      'Answer web/search and web/image_search from {"ns":"web"} lines; web/fetch and web/image_fetch always go out for real, SSRF-guarded',
  },
  {
    name: "account",
    type: "string",
    multiple: true,
    value: "<provider>=<id>[,…]",
    description:
      "A connected account for credentials/* (fields: email=, label=, token=, status=, default); the plugin must declare a credential of that OAuth provider",
  },
  {
    name: "grant",
    type: "string",
    multiple: true,
    value: "<family>",
    description:
      "Simulate the user's grants: only the named families are granted (sampling, agent, storage, files, image, upload, embeddings, web, credentials; default all)",
  },
  {
    name: "no-grant",
    type: "string",
    multiple: true,
    value: "<family>",
    description:
      "Simulate a withdrawn grant: the family's calls fail with its NOT_GRANTED code (credentials: no credentials_token, -32061)",
  },
  {
    name: "app-slug",
    type: "string",
    value: "<slug>",
    description:
      "Dev app the real modes forward for (sampling, agent, image, upload, --storage real); turns on real image and upload (default: the one the server registers for the executa)",
  },
  {
    name: "sampling-account",
    type: "string",
    value: "<host>",
    description:
      "Saved account for real sampling (default: the current one; with a saved account and no sampling flag sampling is real); the fallback of the other --*-account flags",
  },
  {
    name: "agent-account",
    type: "string",
    value: "<host>",
    description:
      "Saved account for real agent calls: sessions on /copilot/app/agent, frames buffered (falls back to --sampling-account, then the current one)",
  },
  {
    name: "storage-account",
    type: "string",
    value: "<host>",
    description:
      "Saved account for --storage real (falls back to --sampling-account, then the current one, see anna-app whoami)",
  },
  {
    name: "image-account",
    type: "string",
    value: "<host>",
    description:
      "Saved account for real image calls, answered by its images model (falls back to --sampling-account)",
  },
  {
    name: "upload-account",
    type: "string",
    value: "<host>",
    description:
      "Saved account for real uploads into its blob store (falls back to --sampling-account, then the current one)",
  },
];
