// Piece `first-token`: the time from asking to the first text delta, through `LlmGateway`
// (`streamChat`) against the AI SDK's `streamText` straight to the same fake provider. The fake
// sends the first delta at once and the rest `REST_AFTER_MS` later (`restAfterMs`), so what is
// timed is the first token, never the whole answer; both read their stream to the end before
// the next sample, so every request finds a warm keep-alive connection.
import { startFakeProvider } from "@anna-ai/agent/test-kit";
import { streamText } from "ai";
import { benchGateway, directModel, SYSTEM, USER_MESSAGES, USER_TEXT } from "./common.js";
import { type LatencyRow, sampleLatencies } from "./latency.js";

const REST_AFTER_MS = 5;
const REPLY = { text: ["First", " and the rest."], restAfterMs: REST_AFTER_MS };

export interface FirstTokenOptions {
  samples: number;
  warmupSamples: number;
}

export async function firstTokenPiece(o: FirstTokenOptions): Promise<LatencyRow[]> {
  const fake = await startFakeProvider({ recordRequests: false });
  try {
    const gateway = benchGateway(fake.baseUrl);
    const model = directModel(fake.baseUrl);
    const direct = async () => {
      fake.enqueue(REPLY);
      const started = performance.now();
      let first: number | undefined;
      const result = streamText({
        model,
        system: SYSTEM,
        messages: USER_MESSAGES,
        maxRetries: 0,
        onError: () => undefined,
      });
      for await (const part of result.fullStream) {
        if (part.type === "text-delta" && part.text !== "") first ??= performance.now();
        else if (part.type === "error") throw part.error;
      }
      return firstDeltaUs(first, started, "streamText");
    };
    const ours = async () => {
      fake.enqueue(REPLY);
      const started = performance.now();
      let first: number | undefined;
      for await (const event of gateway.streamChat(
        { system: SYSTEM, messages: [{ role: "user", content: USER_TEXT }] },
        { account: { userId: "u1" }, purpose: "chat" },
      )) {
        if (event.type === "text-delta") first ??= performance.now();
      }
      return firstDeltaUs(first, started, "LlmGateway.streamChat");
    };
    return await sampleLatencies(
      "time to first text delta",
      [
        { name: "streamText direct", sample: direct },
        { name: "LlmGateway.streamChat", baseline: "streamText direct", sample: ours },
      ],
      o,
    );
  } finally {
    await fake.close();
  }
}

function firstDeltaUs(first: number | undefined, started: number, what: string): number {
  if (first === undefined) throw new Error(`${what} streamed no text delta; the fake sent two`);
  return (first - started) * 1000;
}
