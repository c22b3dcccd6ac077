import { describe, expect, it } from "vitest";
import {
  HostApiError,
  MAX_EARLY_FRAMES,
  RpcStream,
  STREAM_REORDER_WINDOW,
  StreamRouter,
} from "../src/index.js";

function frame(seq: number, payload: unknown, done = false): Record<string, unknown> {
  return { stream_id: "s1", window_uuid: "w", seq, payload, done };
}

async function collect<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of stream) out.push(item);
  return out;
}

describe("RpcStream", () => {
  it("drops duplicate frames and ends after done", async () => {
    const router = new StreamRouter();
    const stream = new RpcStream(Promise.resolve({ stream_id: "s1" }), router);
    await stream.started;
    router.route(frame(0, "a"));
    router.route(frame(0, "a again"));
    router.route(frame(1, "b", true));
    router.route(frame(2, "after the end"));
    await expect(collect(stream)).resolves.toEqual(["a", "b"]);
  });

  it("skips a lost frame once the reorder window is full instead of stalling", async () => {
    const router = new StreamRouter();
    const stream = new RpcStream(Promise.resolve({ stream_id: "s1" }), router);
    await stream.started;
    router.route(frame(0, 0));
    // seq 1 never arrives.
    for (let seq = 2; seq <= STREAM_REORDER_WINDOW + 2; seq++)
      router.route(frame(seq, seq, seq === STREAM_REORDER_WINDOW + 2));
    const items = await collect(stream);
    expect(items[0]).toBe(0);
    expect(items[1]).toBe(2);
    expect(items.at(-1)).toBe(STREAM_REORDER_WINDOW + 2);
    expect(items).toHaveLength(STREAM_REORDER_WINDOW + 2);
  });

  it("keeps at most MAX_EARLY_FRAMES frames for streams nobody opened", async () => {
    const router = new StreamRouter();
    for (let seq = 0; seq < MAX_EARLY_FRAMES + 10; seq++) router.route(frame(seq, seq));
    router.route(frame(MAX_EARLY_FRAMES + 10, "end", true));
    const stream = new RpcStream(Promise.resolve({ stream_id: "s1" }), router);
    await stream.started;
    const reader = stream[Symbol.asyncIterator]();
    const got: unknown[] = [];
    for (let i = 0; i < MAX_EARLY_FRAMES; i++) got.push((await reader.next()).value);
    expect(got).toHaveLength(MAX_EARLY_FRAMES);
    expect(got.at(-1)).toBe(MAX_EARLY_FRAMES - 1);
    stream.close();
    await expect(reader.next()).resolves.toEqual({ value: undefined, done: true });
  });

  it("rejects reads with bad_response when the answer has no stream_id, and fails open streams on closeAll", async () => {
    const router = new StreamRouter();
    const bad = new RpcStream(Promise.resolve({ nope: true }), router);
    await expect(collect(bad)).rejects.toMatchObject({ code: "bad_response" });

    const open = new RpcStream(Promise.resolve({ stream_id: "s1" }), router);
    await open.started;
    const reading = collect(open);
    router.closeAll(new HostApiError("closed", "the runtime was closed"));
    await expect(reading).rejects.toMatchObject({ code: "closed" });
  });

  it("ignores frames without a stream_id or an integer seq", async () => {
    const router = new StreamRouter();
    for (const junk of [
      undefined,
      { seq: 1 },
      { stream_id: "s1", seq: "1" },
      { stream_id: "s1", seq: 1.5 },
    ]) {
      router.route(junk);
    }
    const stream = new RpcStream(Promise.resolve({ stream_id: "s1" }), router);
    await stream.started;
    router.route(frame(0, "only", true));
    await expect(collect(stream)).resolves.toEqual(["only"]);
  });
});
