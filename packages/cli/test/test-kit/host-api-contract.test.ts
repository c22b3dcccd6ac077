// The browser SDK and `mountBundle` agree with the Host API contract
// (`@anna-ai/app-schema/host-api`): the SDK's namespaces expose exactly the contract's methods
// (plus the helpers it documents on top) and each sends its own `ns.method`; the harness answers
// every contract method, through the same namespaces, under the same key. The dispatcher side is
// packages/app-core/test/handlers/host-api-contract.test.ts.
import { HOST_API_METHOD_SPELLINGS } from "@anna-ai/app-schema";
import { HOST_API_CONTRACT, isHostApiMethodKey } from "@anna-ai/app-schema/host-api";
import { buildNamespaces, EventHub, HostApiError, StreamRouter } from "@anna-ai/app-runtime";
import { NULL_LOGGER } from "@anna-ai/jsonrpc";
import { describe, expect, it } from "vitest";
import { mountBundle } from "../../src/test-kit/index.js";
import { tempProject } from "./project.js";

const KEYS = Object.keys(HOST_API_CONTRACT).sort();
const TOOL_ID = "tool-test-contract-12345678";

/** What the SDK adds on top of the wire (docs/app-runtime.md): helpers, not contract methods. */
const SDK_HELPERS = [
  "agent.list",
  "agent.refresh",
  "agent.session",
  "tools.invokeAsyncAwait",
  "tools.onChanged",
  "web.imageFetch",
  "web.imageSearch",
];

/** Every function reachable from `root`, by dotted path (a function's own members included). */
function functionPaths(root: Record<string, unknown>, prefix = ""): string[] {
  const out: string[] = [];
  for (const [name, value] of Object.entries(root)) {
    const path = prefix === "" ? name : `${prefix}.${name}`;
    if (typeof value === "function") out.push(path);
    if ((typeof value === "object" || typeof value === "function") && value !== null) {
      out.push(...functionPaths(value as Record<string, unknown>, path));
    }
  }
  return out;
}

function at(root: Record<string, unknown>, path: string): (...args: unknown[]) => unknown {
  let node: unknown = root;
  for (const part of path.split(".")) node = (node as Record<string, unknown>)[part];
  if (typeof node !== "function") throw new Error(`${path} is not a function`);
  return node as (...args: unknown[]) => unknown;
}

/** Object-form arguments that pass the harness's gate (tools name a declared executa). */
function argsFor(key: string): Record<string, unknown> {
  return key === "tools.invoke" || key === "tools.invokeAsync" ? { tool_id: TOOL_ID } : {};
}

describe("the SDK, mountBundle and the Host API contract", () => {
  it("the SDK exposes exactly the contract's methods plus its helpers, each sending its own key", async () => {
    const sent: string[] = [];
    const router = new StreamRouter();
    const namespaces = buildNamespaces({
      raw: (ns, method) => {
        sent.push(`${ns}.${method}`);
        return Promise.resolve({ stream_id: "s-1" });
      },
      router,
      hub: new EventHub(NULL_LOGGER),
    });
    const paths = functionPaths(namespaces).sort();
    expect(paths.filter((path) => !SDK_HELPERS.includes(path))).toEqual(KEYS);
    expect(
      SDK_HELPERS.filter((path) => !paths.includes(path)),
      "helpers missing",
    ).toEqual([]);

    for (const key of KEYS) {
      sent.length = 0;
      await Promise.resolve(at(namespaces, key)(argsFor(key))).catch(() => undefined);
      expect(sent, key).toEqual([key]);
    }
    router.closeAll(new HostApiError("closed", "the test is over"));
  });

  it("every SDK spelling alias names a contract method", () => {
    for (const [alias, method] of Object.entries(HOST_API_METHOD_SPELLINGS)) {
      const ns = alias.slice(0, alias.indexOf("."));
      expect(isHostApiMethodKey(`${ns}.${method}`), alias).toBe(true);
      expect(SDK_HELPERS, alias).toContain(alias);
    }
  });

  it("mountBundle answers every contract method through the runtime under its contract key", async () => {
    const mocks = Object.fromEntries(
      KEYS.map((key) => [key, () => (key.endsWith("stream") ? { stream_id: "s-1" } : { key })]),
    );
    const manifest = {
      schema: 2,
      required_executas: [TOOL_ID],
      ui: {
        bundle: { entry: "index.html" },
        views: [{ name: "main", title: "Main" }],
        host_api: {
          storage: ["*"],
          files: ["*"],
          chat: ["*"],
          llm: ["*"],
          image: ["*"],
          upload: ["*"],
          web: ["*"],
          apps: ["*"],
          artifact: ["*"],
          fs: ["*"],
          prefs: ["*"],
          credentials: ["github"],
          agent: { session: { auto: true } },
        },
      },
    };
    const harness = await mountBundle({ manifest, mocks, projectDir: tempProject({}) });
    const runtime = harness.runtime as unknown as Record<string, unknown>;
    for (const key of KEYS) {
      await Promise.resolve(at(runtime, key)(argsFor(key))).catch(() => undefined);
    }
    const calls = harness.calls.all();
    expect(calls.map((call) => call.key)).toEqual(KEYS);
    expect(calls.filter((call) => call.outcome !== "ok").map((call) => call.key)).toEqual([]);
    await harness.close();
  });
});
