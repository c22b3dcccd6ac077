// Contract cases straight from a plugin folder: start it, `describe`, stop it. Runners that need
// their cases when they collect tests (vitest `it.each`, `describe.each`) call this at top level.

import { assertInitialize, assertManifest } from "./assertions.js";
import { contractCases, type ContractCase, type ContractOptions } from "./contract-cases.js";
import { startPlugin, type StartDirOptions } from "./start-plugin.js";

export async function loadContractCases(
  start: StartDirOptions,
  options: ContractOptions = {},
): Promise<ContractCase[]> {
  const { client } = await startPlugin(start);
  try {
    // Plugins may refuse to describe before the handshake; a legacy -32601 answer is fine.
    assertInitialize(await client.initialize());
    return contractCases(assertManifest(await client.describe()).manifest, options);
  } finally {
    await client.dispose();
  }
}
