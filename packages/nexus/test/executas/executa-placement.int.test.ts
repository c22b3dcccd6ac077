// One plugin process per (user, tool) across nodes (H11, D-nexus-168), on SQLite and PostgreSQL
// with a real nats-server: two "nodes" (a pool, a placement and a NATS connection each) share one
// database. The first node to invoke owns the pair and the other's invokes run in the owner's
// process; a cancel crosses over; a node that is gone (no responder) loses the pair to the next
// invoke, which starts a clean process; a node that stops, or whose pool let the process go,
// gives its pairs up.
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { connect, type NatsConnection } from "@nats-io/transport-node";
import { describe, expect, it, onTestFinished } from "vitest";
import { systemClock } from "../../src/core/clock.js";
import type { DatabaseHandle } from "../../src/db/connect.js";
import { executaPlacement, type ExecutaPlacement } from "../../src/executas/executa-placement.js";
import { DIALECTS, useDialectCleanup } from "../helpers/dialects.js";
import {
  folderExecutaRuntime,
  type FolderExecutaRuntime,
} from "../helpers/folder-executa-runtime.js";
import { NATS_MISSING, startNats, type NatsServer } from "../helpers/nats.js";

useDialectCleanup();

const FIXTURE = fileURLToPath(new URL("../fixtures/pid-executa", import.meta.url));
const TOOL_ID = "pid-executa";
const VERSION_ID = 7;

interface Node {
  name: string;
  runtime: FolderExecutaRuntime;
  placement: ExecutaPlacement;
  nc: NatsConnection;
  invoke(
    user: string,
    tool: string,
    signal?: AbortSignal,
  ): ReturnType<FolderExecutaRuntime["pool"]["invoke"]>;
}

describe.skipIf(NATS_MISSING !== undefined)(
  `plugin processes across nodes${NATS_MISSING ? ` (${NATS_MISSING})` : ""}`,
  () => {
    describe.each(DIALECTS)("on $name", (d) => {
      async function node(
        name: string,
        handle: DatabaseHandle,
        nats: NatsServer,
        opts: { idleMs?: number; clock?: { now(): number } } = {},
      ): Promise<Node> {
        const root = mkdtempSync(path.join(tmpdir(), `anna-placement-${name}-`));
        chmodSync(root, 0o711);
        onTestFinished(() => rmSync(root, { recursive: true, force: true }));
        const runtime = folderExecutaRuntime({
          folders: new Map([[TOOL_ID, FIXTURE]]),
          pool: {
            sandbox: { mode: "none", root },
            ...(opts.idleMs === undefined ? {} : { idleMs: opts.idleMs }),
          },
        });
        const nc = await connect({ servers: nats.url, noEcho: true });
        const placement = executaPlacement({
          db: handle.db,
          nats: nc,
          subjectPrefix: "anna.test",
          node: name,
          pool: runtime.pool,
          prepare: (toolId, versionId, signal) => runtime.prepare(toolId, versionId, signal),
          clock: opts.clock ?? systemClock,
          logger: { log: () => {} },
        });
        await placement.start();
        runtime.pool.place(placement);
        onTestFinished(async () => {
          await placement.close();
          await runtime.close();
          if (!nc.isClosed()) await nc.close();
        });
        return {
          name,
          runtime,
          placement,
          nc,
          invoke: async (user, tool, signal) =>
            runtime.pool.invoke(
              user,
              await runtime.prepare(TOOL_ID, VERSION_ID),
              tool,
              {},
              signal ? { signal } : {},
            ),
        };
      }
      const pidOf = (n: Node, user: string) => n.runtime.pool.pidOf(user, TOOL_ID);
      const whoami = async (n: Node, user: string) => {
        const outcome = await n.invoke(user, "whoami");
        if (!outcome.ok) throw new Error(`whoami failed: ${JSON.stringify(outcome)}`);
        return outcome.data as { instance: string; served: number };
      };
      const two = async () => {
        const nats = await startNats();
        const [h1, h2] = await d.openShared();
        return [await node("n1", h1, nats), await node("n2", h2, nats)] as const;
      };

      it.skipIf(d.skip)(
        "runs a pair's invokes from both nodes in the owner's one process",
        async () => {
          const [n1, n2] = await two();
          const first = await whoami(n1, "u1");
          const second = await whoami(n2, "u1");
          expect(second).toEqual({ instance: first.instance, served: 2 });
          expect(pidOf(n2, "u1")).toBeUndefined();
          expect([...n1.placement.owned]).toEqual([JSON.stringify(["u1", TOOL_ID])]);
          // Another user's first invoke on n2 makes n2 that pair's owner.
          const other = await whoami(n2, "u2");
          expect(other.served).toBe(1);
          expect(pidOf(n2, "u2")).toBeDefined();
          expect((await whoami(n1, "u2")).instance).toBe(other.instance);
          expect(pidOf(n1, "u2")).toBeUndefined();
        },
      );

      it.skipIf(d.skip)("carries a cancel to the owner's process", async () => {
        const [n1, n2] = await two();
        await whoami(n1, "u1");
        const controller = new AbortController();
        const waiting = n2.invoke("u1", "wait", controller.signal);
        await new Promise((r) => setTimeout(r, 300));
        controller.abort(new Error("stop"));
        const outcome = await waiting;
        expect(outcome.ok).toBe(false);
        expect(JSON.stringify(outcome)).toContain("was cancelled");
        // The owner is free for the next call.
        expect((await whoami(n2, "u1")).served).toBe(2);
      });

      it.skipIf(d.skip)(
        "ends a call in flight soon after the node running it goes silent, not at its time limit",
        async () => {
          const [n1, n2] = await two();
          await whoami(n1, "u1");
          const started = Date.now();
          const waiting = n2.invoke("u1", "wait");
          await new Promise((r) => setTimeout(r, 1_500));
          // n1 dies mid-call: its beats stop (the tool's limit is 30 s).
          await n1.nc.close();
          const outcome = await waiting;
          expect(outcome.ok).toBe(false);
          expect(JSON.stringify(outcome)).toContain("stopped answering");
          expect(Date.now() - started).toBeLessThan(15_000);
        },
        20_000,
      );

      it.skipIf(d.skip)(
        "takes a pair over from a node that is gone, with a clean process",
        async () => {
          const [n1, n2] = await two();
          const before = await whoami(n1, "u1");
          // n1 dies: no responder on its subject, its row still fresh.
          await n1.nc.close();
          const after = await whoami(n2, "u1");
          expect(after.instance).not.toBe(before.instance);
          expect(after.served).toBe(1);
          expect(pidOf(n2, "u1")).toBeDefined();
          expect(n2.placement.owned.has(JSON.stringify(["u1", TOOL_ID]))).toBe(true);
        },
      );

      it.skipIf(d.skip)(
        "gives a pair up once the pool let its process go, so another node may take it",
        async () => {
          const nats = await startNats();
          const [h1, h2] = await d.openShared();
          let skew = 0;
          const clock = { now: () => Date.now() + skew };
          const n1 = await node("n1", h1, nats, { idleMs: 100, clock });
          const n2 = await node("n2", h2, nats);
          await whoami(n1, "u1");
          await expect.poll(() => n1.runtime.pool.holds("u1", TOOL_ID)).toBe(false);
          // Still within the claim's grace: kept.
          await n1.placement.heartbeat();
          expect(n1.placement.owned.size).toBe(1);
          skew = 60_000;
          await n1.placement.heartbeat();
          expect(n1.placement.owned.size).toBe(0);
          await whoami(n2, "u1");
          expect(n2.placement.owned.has(JSON.stringify(["u1", TOOL_ID]))).toBe(true);
          expect(pidOf(n1, "u1")).toBeUndefined();
        },
      );

      it.skipIf(d.skip)(
        "gives its pairs up when it stops, and keeps them while it beats",
        async () => {
          const [n1, n2] = await two();
          const first = await whoami(n1, "u1");
          await n1.placement.heartbeat();
          expect(n1.placement.owned.size).toBe(1);
          await n1.placement.close();
          expect(n1.placement.owned.size).toBe(0);
          const next = await whoami(n2, "u1");
          expect(next.instance).not.toBe(first.instance);
          expect(pidOf(n2, "u1")).toBeDefined();
        },
      );
    });
  },
);
