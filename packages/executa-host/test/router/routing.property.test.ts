// Property (issue text): under 64 concurrent invokes with random interleavings, no reverse-RPC
// reply is ever delivered to the wrong invoke. Both peers are real RpcPeers over an in-memory
// transport pair; the plugin side picks random correlation styles and id types (32-hex, 24-hex,
// UUID, integer), fast-check's scheduler decides the order in which requests leave and services
// answer, and every service echoes the invoke it was called for.
import { RpcError, RpcPeer, createMemoryPair } from "@anna-ai/jsonrpc";
import type { JsonRpcId } from "@anna-ai/jsonrpc";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ReverseRpcRouter } from "../../src/router/reverse-rpc-router.js";
import { createAllowAllGrantPolicy } from "../../src/services/grants.js";
import { createRecordingServices } from "../../src/services/recording-services.js";
import { SAMPLE, invokeStart, sessionInfo } from "./helpers.js";

const INVOKES = 64;

const METHODS: readonly [string, Record<string, unknown>][] = [
  ["sampling/createMessage", SAMPLE],
  ["storage/get", { key: "k" }],
  ["storage/set", { key: "k", value: { n: 1 }, scope: "user" }],
  ["files/list", { prefix: "a/" }],
  ["image/generate", { prompt: "a cat" }],
  ["embeddings/create", { input: ["a", "b"] }],
  ["agent/session.create", { kind: "agent", agent_submode: "auto" }],
];

type Style = "context" | "executa_invoke_id" | "invoke_id" | "context+metadata" | "foreign";
type IdKind = "hex32" | "hex24" | "uuid" | "int";

const callArb = fc.record({
  method: fc.nat({ max: METHODS.length - 1 }),
  style: fc.constantFrom<Style>(
    "context",
    "executa_invoke_id",
    "invoke_id",
    "context+metadata",
    "foreign",
  ),
  idKind: fc.constantFrom<IdKind>("hex32", "hex24", "uuid", "int"),
});

function makeId(kind: IdKind, n: number): JsonRpcId {
  const hex = n.toString(16);
  switch (kind) {
    case "int":
      return n;
    case "hex32":
      return hex.padStart(32, "0");
    case "hex24":
      return hex.padStart(24, "f");
    case "uuid": {
      const h = hex.padStart(32, "a");
      return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
    }
  }
}

function correlation(style: Style, invokeId: string): Record<string, unknown> {
  switch (style) {
    case "context":
      return { context: { invoke_id: invokeId } };
    case "executa_invoke_id":
      return { metadata: { executa_invoke_id: invokeId, tool: "do-it" } };
    case "invoke_id":
      return { metadata: { invoke_id: invokeId } };
    case "context+metadata":
      return { context: { invoke_id: invokeId }, metadata: { executa_invoke_id: "" } };
    case "foreign":
      return { context: { invoke_id: `foreign-${invokeId}` } };
  }
}

describe("reverse-RPC routing under concurrency", () => {
  it("never delivers a reply to the wrong invoke (64 concurrent invokes, random interleavings and endings)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            calls: fc.array(callArb, { minLength: 1, maxLength: 3 }),
            // Some invokes end while their reverse calls are still on the way.
            endsEarly: fc.nat({ max: 4 }).map((n) => n === 0),
          }),
          { minLength: INVOKES, maxLength: INVOKES },
        ),
        fc.scheduler(),
        async (plan, s) => {
          const services = createRecordingServices({
            respond: (call) =>
              s.schedule(
                Promise.resolve({ echo: call.ctx.invokeId, method: call.method }),
                "answer",
              ),
          });
          const router = new ReverseRpcRouter({ services, grants: createAllowAllGrantPolicy() });
          const session = router.attach(sessionInfo());
          const [hostSide, pluginSide] = createMemoryPair();
          const host = new RpcPeer(hostSide, { name: "host" });
          const plugin = new RpcPeer(pluginSide, { name: "plugin" });
          host.onAnyRequest((method, params, request) =>
            session.handleRequest(method, params, request.signal),
          );
          host.start();
          plugin.start();
          try {
            const invokeIds = plan.map((_, i) => `inv-${i.toString(16).padStart(8, "0")}`);
            for (const invokeId of invokeIds) await session.beginInvoke(invokeStart(invokeId));

            let n = 1;
            const endings = plan.map(async ({ endsEarly }, i) => {
              if (!endsEarly) return;
              await s.schedule(Promise.resolve(), "end");
              session.endInvoke(invokeIds[i] as string);
            });
            const outcomes = plan.flatMap(({ calls, endsEarly }, i) =>
              calls.map(async (call) => {
                const invokeId = invokeIds[i] as string;
                const [method, base] = METHODS[call.method] as [string, Record<string, unknown>];
                const id = makeId(call.idKind, n++);
                // The scheduler decides when each request leaves the plugin.
                await s.schedule(Promise.resolve(), "send");
                const params = { ...base, ...correlation(call.style, invokeId) };
                try {
                  const result = await plugin.request(method, params, { id });
                  return { call, invokeId, endsEarly, result, error: undefined };
                } catch (error) {
                  return { call, invokeId, endsEarly, result: undefined, error };
                }
              }),
            );
            const results = await s.waitFor(
              Promise.all([...outcomes, ...endings]).then(() => Promise.all(outcomes)),
            );

            for (const outcome of results) {
              if (outcome.result !== undefined) {
                // The one thing that must never happen: an answer made for another invoke.
                expect(outcome.call.style).not.toBe("foreign");
                expect(outcome.result).toMatchObject({ echo: outcome.invokeId });
                continue;
              }
              expect(outcome.error).toBeInstanceOf(RpcError);
              expect((outcome.error as RpcError).errorCode).toBe("UNKNOWN_INVOKE_CONTEXT");
              expect(outcome.call.style === "foreign" || outcome.endsEarly).toBe(true);
            }
            const answered = results.filter((r) => r.result !== undefined);
            expect(services.calls.map((c) => c.ctx.invokeId).sort()).toEqual(
              answered.map((r) => r.invokeId).sort(),
            );
            // Invokes that stayed open got every non-foreign call answered.
            for (const outcome of results) {
              if (!outcome.endsEarly && outcome.call.style !== "foreign") {
                expect(outcome.result).toBeDefined();
              }
            }
          } finally {
            session.dispose();
            await plugin.close();
            await host.close();
          }
        },
      ),
      { numRuns: 20 },
    );
  });
});
