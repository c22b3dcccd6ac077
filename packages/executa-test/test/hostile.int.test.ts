// Broken and hostile plugins make the assertions fail, each with a message that names the rule,
// quotes the offending frame and says what a conforming plugin sends instead.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { SupervisorMode } from "@anna-ai/executa-host";
import { describe, expect, it, onTestFinished } from "vitest";
import {
  EnvelopeAssertionError,
  assertCleanStdout,
  assertContractOutcome,
  assertInvokeResult,
  assertInvokeSuccess,
  assertManifest,
  assertResponse,
  assertResult,
  assertRpcError,
  contractCases,
  isResponse,
  startPluginCommand,
  type PluginClient,
} from "@anna-ai/executa-test";
import { HOST_FIXTURES_DIR, LENIENT_DIR, started } from "./helpers.js";

function hostFixture(file: string, supervisor?: SupervisorMode): PluginClient {
  const client = startPluginCommand({
    command: [process.execPath, join(HOST_FIXTURES_DIR, file)],
    cwd: HOST_FIXTURES_DIR,
    ...(supervisor !== undefined ? { supervisor } : {}),
  });
  onTestFinished(() => client.dispose());
  return client;
}

function failure(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(EnvelopeAssertionError);
    return (error as Error).message;
  }
  throw new Error("expected the assertion to fail");
}

describe("assertions against broken plugins", () => {
  it("names stdout lines that are not frames, and a frame with neither result nor error", async () => {
    const client = hostFixture("bad-frames.mjs");
    assertInvokeSuccess(await client.invoke("echo"));
    // The first is the response cut off mid-frame, quoted as JSON so invisible bytes show.
    expect(failure(() => assertCleanStdout(client))).toMatch(
      /^stdout carried 2 line\(s\) that are not JSON-RPC frames, first: "\{\\"jsonrpc\\":\\"2\.0\\",\\"id\\":1,\\"result\\":"; write logs to stderr, stdout belongs to the protocol$/,
    );
    const neither = client.frames.find((frame) => frame.message.note === "neither");
    if (neither === undefined) throw new Error("the fixture sent no frame without result/error");
    expect(failure(() => assertResponse(neither))).toBe(
      'response carries neither result nor error; send exactly one\n  frame: {"jsonrpc":"2.0","note":"neither"}',
    );
  });

  it("explains a describe wrapped in {manifest}", async () => {
    const client = hostFixture("describe-wrapped.mjs");
    const frame = await client.describe();
    expect(failure(() => assertManifest(frame))).toMatch(
      /^describe: describe returned \{"manifest": \{\.\.\.\}\}; return the manifest itself/,
    );
  });

  it("fails a wait at once, with the exit and the stderr tail, when the plugin crashes", async () => {
    const client = hostFixture("crash-mid-invoke.mjs");
    await expect(client.invoke("crash")).rejects.toThrow(
      /plugin exited before the awaited frame \(plugin exited: \{"code":3,"signal":null\}\).*fatal: segmentation fault/s,
    );
  });

  it("never leaves a plugin behind that ignores stdin EOF and SIGTERM", async () => {
    const client = hostFixture("ignore-sigterm.mjs");
    assertInvokeSuccess(await client.invoke("echo"));
    await client.dispose();
    expect(await client.exited).toEqual({ code: null, signal: "SIGKILL" });
  });
});

/** Alive and not a zombie: /proc/<pid>/stat state field (Linux, where these tests run). */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return !/^[ZX]/.test(stat.slice(stat.lastIndexOf(")") + 2));
  } catch {
    return false;
  }
}

describe.skipIf(process.platform !== "linux")("dispose on Linux", () => {
  // Unsupervised, so the helper's pid is one this test can see (under bubblewrap the plugin
  // reports a pid of its own namespace, and the namespace dies with it anyway).
  it("also stops the helper a plugin left in its process group", async () => {
    const client = hostFixture("crash-with-helper.mjs", "none");
    const helper = assertInvokeSuccess(await client.invoke("helper")).data as { helperPid: number };
    expect(running(helper.helperPid)).toBe(true);
    await client.dispose();
    expect(running(helper.helperPid)).toBe(false);
  });
});

describe("assertions against the lenient fixture (every rule a little wrong)", () => {
  it("asks for success when an invoke result has none", async () => {
    const { client } = await started({ dir: LENIENT_DIR });
    const frame = await client.invoke("bare");
    expect(failure(() => assertInvokeResult(frame))).toMatch(
      /^invoke result does not follow \{success, data\?, error\?\}: success: .*; add "success": true\|false \(the platform reads a missing success as a failure\)\n {2}frame: .*"answer":42/,
    );
  });

  it("catches an id echoed with another JSON type", async () => {
    const { client } = await started({ dir: LENIENT_DIR });
    client.send({ jsonrpc: "2.0", id: 7, method: "invoke", params: { tool: "string_id" } });
    const frame = await client.waitFor(isResponse, "the string_id answer");
    expect(failure(() => assertResponse(frame, 7))).toMatch(
      /^response id "7" \(string\) does not echo the request id 7 \(number\); echo the id with its JSON type/,
    );
  });

  it("names the catalog code an error lacks", async () => {
    const { client } = await started({ dir: LENIENT_DIR });
    const frame = await client.health();
    expect(assertRpcError(frame, { code: -32601 }).message).toBe("Method not found");
    expect(failure(() => assertRpcError(frame, { errorCode: "METHOD_NOT_FOUND" }))).toMatch(
      /^expected error\.data\.errorCode "METHOD_NOT_FOUND", got undefined\n {2}frame: /,
    );
    expect(failure(() => assertResult(frame))).toMatch(
      /^expected a result, got error -32601 \(METHOD_NOT_FOUND\): Method not found/,
    );
  });

  it("refuses a response with both result and error", async () => {
    const { client } = await started({ dir: LENIENT_DIR });
    const frame = await client.invoke("both");
    expect(failure(() => assertResult(frame))).toMatch(
      /^response carries both result and error; send exactly one/,
    );
  });

  it("fails the contract cases a plugin without argument checks accepts", async () => {
    const { client, spec } = await started({ dir: LENIENT_DIR });
    expect(spec.warnings).toEqual(["no package.json; starting lenient-plugin.mjs"]);
    const { manifest } = assertManifest(await client.describe());
    const cases = contractCases(manifest).filter((c) => c.tool === "echo");
    const messages: string[] = [];
    for (const testCase of cases) {
      try {
        assertContractOutcome(testCase, await client.invoke(testCase.tool, testCase.arguments));
      } catch (error) {
        messages.push((error as Error).message);
      }
    }
    expect(messages).toEqual([
      expect.stringMatching(
        /^contract case "echo: missing required "text"" with arguments \{"times":2\}: expected the invoke to fail \(success: false or a JSON-RPC error\), got success: true; check the arguments against the declared parameters and answer -32602 or success: false\n {2}frame: \{"jsonrpc":"2\.0","id":\d+,"result":\{"success":true,"data":\{"times":2\}\}\}$/,
      ),
      expect.stringMatching(
        /^contract case "echo: "text" of the wrong type \(number for string\)"/,
      ),
      expect.stringMatching(
        /^contract case "echo: "times" of the wrong type \(string for integer\)"/,
      ),
    ]);
    expect(() => assertCleanStdout(client)).toThrow(/"lenient plugin listening"/);
  });
});
