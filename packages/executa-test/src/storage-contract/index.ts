// `@anna-ai/executa-test/storage-contract`: the semantics of the APS storage interface as vitest
// cases, run against every implementation (the memory store of `executa dev`, the SQL store of
// the server). Call it inside a test file:
//
//   describeStorageContract("memory", ({ clock, limits }) => {
//     const storage = createMemoryStorageService({ clock, limits });
//     return { storage };
//   });
import { describe } from "vitest";
import { describeFilesContract } from "./files-cases.js";
import { describeKvContract } from "./kv-cases.js";
import type { MakeStorage, StorageContractOptions } from "./subject.js";

/** Registers the contract cases for one implementation under `storage contract: <name>`. */
export function describeStorageContract(
  name: string,
  make: MakeStorage,
  options: StorageContractOptions = {},
): void {
  describe(`storage contract: ${name}`, () => {
    describeKvContract(make);
    if (options.files !== false) describeFilesContract(make);
  });
}

export { CONTRACT_T0_MS, caller, contractClock } from "./contract-context.js";
export type { CallerOptions, ContractClock } from "./contract-context.js";
export type {
  MakeStorage,
  StorageContractOptions,
  StorageContractSetup,
  StorageUnderTest,
} from "./subject.js";
