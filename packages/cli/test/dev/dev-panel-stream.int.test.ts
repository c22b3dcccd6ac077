// The panel's stream over real HTTP: call frames carry their sequence number as the SSE `id`, and
// a page's EventSource that reconnects (sending it back as `Last-Event-ID`) gets only the calls
// after it, not every call since its boot state again (it showed each of those twice).
import { describe, expect, it } from "vitest";
import { copyFixtureApp, rpc, startHarness, tokenOf } from "./helpers.js";

/** A ceiling for a loaded CI box; the read returns as soon as the frames are in. */
const STREAM_TIMEOUT_MS = 10_000;

async function readCalls(url: string, headers: Record<string, string>, want: number) {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), STREAM_TIMEOUT_MS);
  try {
    const res = await fetch(url, { headers, signal: abort.signal });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = "";
    const frames = () => [...text.matchAll(/^id: (\d+)\nevent: call\ndata: (.+)$/gm)];
    while (frames().length < want) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value);
    }
    return frames().map((m) => ({
      id: Number(m[1]),
      call: (JSON.parse(m[2] ?? "{}") as { args: unknown }).args,
    }));
  } finally {
    clearTimeout(timer);
    abort.abort();
  }
}

describe("anna-app dev panel stream", () => {
  it("numbers call frames and resumes after Last-Event-ID instead of the boot state's after", async () => {
    const { dir } = copyFixtureApp("frames-app");
    const server = await startHarness({ dir });
    const token = tokenOf(server);
    await rpc(server, token, "storage", "set", { key: "a", value: 1 });
    await rpc(server, token, "storage", "set", { key: "b", value: 2 });
    await rpc(server, token, "storage", "set", { key: "c", value: 3 });

    const fresh = await readCalls(`${server.url}dev/stream?after=0`, {}, 3);
    expect(fresh.map((f) => f.id)).toEqual([1, 2, 3]);
    const resumed = await readCalls(`${server.url}dev/stream?after=0`, { "Last-Event-ID": "2" }, 1);
    expect(resumed).toEqual([{ id: 3, call: { key: "c", value: 3 } }]);
  });
});
