// The turn event log: gapless seqs per turn even for overlapping appends, readers that resume
// after a cursor and then follow live frames, and the end after `turn.finished`.
import { describe, expect, it } from "vitest";
import { MemoryTurnFrameStore, TurnEventLog } from "../src/index.js";
import type { TurnFrame } from "../src/index.js";

const delta = (text: string) => ({ type: "text.delta", text }) as const;
const finished = {
  type: "turn.finished",
  status: "completed",
  usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
} as const;

async function collect(it: AsyncIterable<TurnFrame>): Promise<TurnFrame[]> {
  const out: TurnFrame[] = [];
  for await (const f of it) out.push(f);
  return out;
}

describe("TurnEventLog", () => {
  it("numbers overlapping appends 1, 2, 3 in call order", async () => {
    const store = new MemoryTurnFrameStore();
    const log = new TurnEventLog(store);
    const w = await log.writer("t");
    const seqs = await Promise.all([
      w.append(delta("a")),
      w.append(delta("b")),
      w.append(delta("c")),
    ]);
    expect(seqs).toEqual([1, 2, 3]);
    expect((await store.after("t", 0, 10)).map((f) => f.event)).toEqual([
      delta("a"),
      delta("b"),
      delta("c"),
    ]);
  });

  it("continues after the frames already stored (a writer opened again)", async () => {
    const store = new MemoryTurnFrameStore();
    const log = new TurnEventLog(store);
    await (await log.writer("t")).append(delta("a"));
    expect(await (await log.writer("t")).append(finished)).toBe(2);
  });

  it("gives a reader the frames after its cursor, then live ones, and ends after turn.finished", async () => {
    const log = new TurnEventLog(new MemoryTurnFrameStore(), { pollMs: 60_000, pageSize: 2 });
    const w = await log.writer("t");
    for (const t of ["a", "b", "c"]) await w.append(delta(t));
    const reading = collect(log.read("t", 1, new AbortController().signal));
    await w.append(delta("d"));
    await w.append(finished);
    const frames = await reading;
    expect(frames.map((f) => f.seq)).toEqual([2, 3, 4, 5]);
    expect(frames.at(-1)?.event).toEqual(finished);
  });

  it("stops reading when its signal aborts", async () => {
    const log = new TurnEventLog(new MemoryTurnFrameStore(), { pollMs: 60_000 });
    const w = await log.writer("t");
    await w.append(delta("a"));
    const controller = new AbortController();
    const frames: TurnFrame[] = [];
    for await (const f of log.read("t", 0, controller.signal)) {
      frames.push(f);
      controller.abort();
    }
    expect(frames.map((f) => f.seq)).toEqual([1]);
  });

  it("finds frames written by another process through the poll", async () => {
    const store = new MemoryTurnFrameStore();
    const reader = new TurnEventLog(store, { pollMs: 20 });
    const other = new TurnEventLog(store);
    const reading = collect(reader.read("t", 0, new AbortController().signal));
    const w = await other.writer("t");
    await w.append(delta("a"));
    await w.append(finished);
    expect((await reading).map((f) => f.seq)).toEqual([1, 2]);
  });
});
