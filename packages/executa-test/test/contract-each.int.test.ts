// The pattern docs/executa-test.md gives plugin authors: cases loaded when the file is collected,
// one vitest test per case, against one plugin process started the way the host starts it.

import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  assertContractOutcome,
  loadContractCases,
  refusingHost,
  startPlugin,
  type PluginClient,
} from "@anna-ai/executa-test";
import { EXAMPLES_DIR } from "./helpers.js";

const dir = join(EXAMPLES_DIR, "ts-kitchen-sink");
const cases = await loadContractCases({ dir });

describe("ts-kitchen-sink contract", () => {
  let client: PluginClient;
  beforeAll(async () => {
    client = (await startPlugin({ dir })).client;
    client.answerReverse(refusingHost());
    await client.initialize();
  });
  afterAll(() => client.dispose());

  it("has cases of every kind", () => {
    expect(new Set(cases.map((c) => c.kind))).toEqual(
      new Set(["valid", "missing_required", "wrong_type"]),
    );
  });

  it.each(cases)("$title", async (testCase) => {
    assertContractOutcome(testCase, await client.invoke(testCase.tool, testCase.arguments));
  });
});
