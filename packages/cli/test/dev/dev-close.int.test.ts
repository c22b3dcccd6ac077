// close() with clients attached: an event the dispatcher publishes while the harness is closing
// (a job settling, a plugin stopping) must not be written to an event stream already ended — a
// write after end is an 'error' on the response, which nothing handles, and crashed the process
// on Ctrl-C.
import { makeEvent } from "@anna-ai/app-core";
import { describe, expect, it } from "vitest";
import { scaffoldTestApp, startHarness } from "./helpers.js";

describe("anna-app dev close()", () => {
  it("ends the event streams and ignores events published while it closes", async () => {
    const server = await startHarness(await scaffoldTestApp());
    const res = await fetch(`${server.url}api/v1/anna-apps/runtime/events/stream`);
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    // The stream is registered once its first comment arrives.
    expect(new TextDecoder().decode((await reader.read()).value)).toContain(": connected");

    const closing = server.close();
    // Synchronously after close() began: the stream is ended, its 'close' not yet emitted.
    server.dispatcher.emit(
      server.dispatcher.userId,
      makeEvent("ping", { appId: server.app.slug }, {}, Date.now()),
    );
    await closing;
    let done = false;
    while (!done) done = (await reader.read().catch(() => ({ done: true }))).done;
    expect(done).toBe(true);
  });
});
