// Buffering an agent run's server-sent events: frames in order, CRLF and split chunks handled,
// the 4096-frame cap raising -32047 agent_run_too_large, malformed events as provider errors.
import { AGENT_RUN_MAX_FRAMES } from "@anna-ai/app-schema";
import { describe, expect, it } from "vitest";
import { readAgentFrames } from "../../src/real-copilot/agent-stream.js";

function body(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const c of chunks) controller.enqueue(encoder.encode(c));
      controller.close();
    },
  });
}

const event = (seq: number, frame: Record<string, unknown>) =>
  `id: ${seq}\nevent: ${String(frame.event)}\ndata: ${JSON.stringify({ ...frame, seq })}\n\n`;

describe("readAgentFrames", () => {
  it("keeps the frames in order across chunk boundaries and CRLF line ends", async () => {
    const text =
      event(0, { event: "run_meta" }) +
      event(1, { event: "delta", text: "hi" }).replace(/\n/g, "\r\n") +
      event(2, { event: "final", text: "hi" });
    const chunks = [text.slice(0, 7), text.slice(7, 40), text.slice(40)];
    const frames = await readAgentFrames(body(chunks), { what: "POST /agent" });
    expect(frames.map((f) => f.event)).toEqual(["run_meta", "delta", "final"]);
    expect(frames[1]).toMatchObject({ text: "hi", seq: 1 });
  });

  it(`answers -32047 agent_run_too_large past ${AGENT_RUN_MAX_FRAMES} frames`, async () => {
    const many = Array.from({ length: AGENT_RUN_MAX_FRAMES + 1 }, (_, i) =>
      event(i, { event: "delta", text: "x" }),
    );
    await expect(
      readAgentFrames(body([many.join("")]), { what: "POST /agent" }),
    ).rejects.toMatchObject({
      code: -32047,
      data: { errorCode: "AGENT_RUN_TOO_LARGE" },
      message: expect.stringMatching(/more than 4096 frames/),
    });
    const exactly = many.slice(0, AGENT_RUN_MAX_FRAMES).join("");
    expect(await readAgentFrames(body([exactly]), { what: "POST /agent" })).toHaveLength(
      AGENT_RUN_MAX_FRAMES,
    );
  });

  it("names an event whose data is not JSON or has no event name", async () => {
    await expect(
      readAgentFrames(body(["data: {nope\n\n"]), { what: "POST /agent" }),
    ).rejects.toMatchObject({ code: -32046, message: expect.stringMatching(/not JSON/) });
    await expect(
      readAgentFrames(body(['data: {"text":"x"}\n\n']), { what: "POST /agent" }),
    ).rejects.toMatchObject({ code: -32046, message: expect.stringMatching(/without an "event"/) });
  });
});
