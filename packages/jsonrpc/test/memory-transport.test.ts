import { describe, expect, it } from "vitest";
import { createMemoryPair } from "../src/memory-transport.js";
import type { FrameMeta } from "../src/types.js";
import { waitFor } from "./helpers.js";

describe("createMemoryPair", () => {
  it("delivers asynchronously, in order, as clones", async () => {
    const [a, b] = createMemoryPair();
    const got: [Record<string, unknown>, FrameMeta][] = [];
    b.start({ onMessage: (m, meta) => got.push([m, meta]), onClose: () => undefined });
    a.start({ onMessage: () => undefined, onClose: () => undefined });
    const params = { list: [1, 2], text: "é" };
    const bytes = a.send({ jsonrpc: "2.0", method: "one", params });
    a.send({ jsonrpc: "2.0", method: "two" });
    expect(got).toHaveLength(0);
    params.list.push(3);
    await waitFor(() => got.length === 2);
    expect(got.map(([m]) => m.method)).toEqual(["one", "two"]);
    expect(got[0]?.[0].params).toEqual({ list: [1, 2], text: "é" });
    expect(bytes).toBe(
      JSON.stringify({ jsonrpc: "2.0", method: "one", params: { list: [1, 2], text: "é" } })
        .length + 2,
    );
    expect(got[0]?.[1].bytes).toBe(bytes);
  });

  it("keeps frames sent before start and closes both sides exactly once", async () => {
    const [a, b] = createMemoryPair();
    let closes = 0;
    let closesA = 0;
    a.start({
      onMessage: () => undefined,
      onClose: () => {
        closesA++;
      },
    });
    a.send({ jsonrpc: "2.0", method: "early" });
    await a.close();
    await a.close();
    await new Promise<void>((resolve) => queueMicrotask(resolve));
    const got: unknown[] = [];
    b.start({
      onMessage: (m) => got.push(m.method),
      onClose: () => {
        closes++;
      },
    });
    expect(got).toEqual(["early"]);
    expect(closes).toBe(1);
    expect(b.send({ jsonrpc: "2.0", method: "late" })).toBe(0);
    expect(closesA).toBe(1);
  });
});
