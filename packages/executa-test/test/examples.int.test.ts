// The example plugins in TypeScript, Python and Go, started from their folders the way the host
// starts them, pass the envelope assertions and every contract case generated from their own
// declared parameters. Python and Go are skipped with a message when not installed.

import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  assertCleanStdout,
  assertContractOutcome,
  assertInitialize,
  assertInvokeFailure,
  assertInvokeSuccess,
  assertManifest,
  assertResult,
  contractCases,
  refusingHost,
  type ContractOptions,
  type PluginClient,
} from "@anna-ai/executa-test";
import { needs } from "../../../tests/support/toolchains.js";
import { EXAMPLES_DIR, GO_RUN_TIMEOUT_MS, goEnv, started } from "./helpers.js";

const python = needs("python3");
const go = needs("go");

/** Runs every generated case and returns the failures, so one test reports all of them. */
async function runContract(
  client: PluginClient,
  options: ContractOptions = {},
): Promise<{ cases: number; failures: string[] }> {
  const { manifest } = assertManifest(await client.describe());
  const cases = contractCases(manifest, options);
  const failures: string[] = [];
  for (const testCase of cases) {
    try {
      assertContractOutcome(testCase, await client.invoke(testCase.tool, testCase.arguments));
    } catch (error) {
      failures.push((error as Error).message);
    }
  }
  return { cases: cases.length, failures };
}

describe("ts-notes (TypeScript, protocol 2.0)", () => {
  it("starts from its folder, handshakes, describes and keeps stdout clean", async () => {
    const { client, spec } = await started({ dir: join(EXAMPLES_DIR, "ts-notes") });
    expect(spec.type).toBe("node");
    expect(assertInitialize(await client.initialize(), undefined)).toMatchObject({
      protocolVersion: "2.0",
    });
    const { manifest } = assertManifest(await client.describe());
    expect(manifest.tools.map((tool) => tool.name)).toContain("add_note");
    expect(assertResult(await client.health())).toBeTypeOf("object");
    assertCleanStdout(client);
  });

  it("passes every contract case, with its reverse calls refused by a host without services", async () => {
    const { client } = await started({ dir: join(EXAMPLES_DIR, "ts-notes") });
    client.answerReverse(refusingHost());
    await client.initialize();
    const { cases, failures } = await runContract(client);
    expect(cases).toBeGreaterThan(5);
    expect(failures).toEqual([]);
  });

  it("reports its argument errors as failures the assertions accept", async () => {
    const { client } = await started({ dir: join(EXAMPLES_DIR, "ts-notes") });
    await client.initialize();
    const failure = assertInvokeFailure(await client.invoke("add_note", { text: 42 }));
    expect(failure.kind === "rpc" ? failure.error.message : failure.error).toMatch(/text/);
  });
});

describe.skipIf(python.skip)(`py-weather (Python, protocol 1.1)${python.reason}`, () => {
  it("stays on protocol 1.1, describes, invokes and passes every contract case", async () => {
    const { client, spec } = await started({
      dir: join(EXAMPLES_DIR, "py-weather"),
      env: { WEATHER_API_KEY: "sk_test_1234" },
    });
    expect(spec.type).toBe("python");
    // -32601 to initialize is the legacy answer: the host then speaks protocol 1.1.
    expect(assertInitialize(await client.initialize())).toBeUndefined();
    const weather = assertInvokeSuccess(await client.invoke("get_weather", { city: "Oslo" }));
    expect(weather.data).toMatchObject({ city: "Oslo" });
    // The allowed field names are only in the description, so the test names a valid one.
    const { cases, failures } = await runContract(client, {
      samples: { forecast: { fields: ["temp"] } },
    });
    expect(cases).toBeGreaterThan(3);
    expect(failures).toEqual([]);
    assertCleanStdout(client);
  });
});

describe.skipIf(go.skip)(`go-hello (Go, protocol 2.0)${go.reason}`, () => {
  it(
    "starts with go run, greets and passes every contract case",
    async () => {
      const { client, spec } = await started({
        dir: join(EXAMPLES_DIR, "go-hello"),
        env: goEnv(),
        timeoutMs: GO_RUN_TIMEOUT_MS,
      });
      expect(spec.command.slice(0, 2)).toEqual(["go", "run"]);
      client.answerReverse(refusingHost());
      expect(assertInitialize(await client.initialize())).toMatchObject({ protocolVersion: "2.0" });
      const greeting = assertInvokeSuccess(await client.invoke("greet", { name: "Ada" }));
      expect(JSON.stringify(greeting.data)).toContain("Ada");
      const { cases, failures } = await runContract(client);
      expect(cases).toBeGreaterThan(3);
      expect(failures).toEqual([]);
      assertCleanStdout(client);
    },
    GO_RUN_TIMEOUT_MS,
  );
});
