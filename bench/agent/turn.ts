// Piece `turn`: what `runTurn` costs per turn over the model call itself. Both rows send the
// same system prompt and user message to the same fake provider, which answers at once with a
// short text; the baseline streams it with the AI SDK's `streamText` and reads the full stream,
// ours runs the turn loop (gateway: quota, retries policy, bounded fetch, usage; the loop's
// events to an in-memory sink). The difference per turn is the runtime's overhead.
import { startFakeProvider } from "@anna-ai/agent/test-kit";
import type { MeasureOptions } from "../nexus/measure.js";
import type { LatencyRow } from "./latency.js";
import { measureWithCpu } from "./measure-cpu.js";
import {
  benchGateway,
  benchPrompt,
  directModel,
  directStep,
  expectCompleted,
  USER_MESSAGES,
  benchTurn,
} from "./common.js";

const REPLY = { text: ["Two ", "meetings ", "and a walk."] };

export async function turnPiece(o: MeasureOptions): Promise<LatencyRow[]> {
  const fake = await startFakeProvider({ recordRequests: false });
  try {
    const gateway = benchGateway(fake.baseUrl);
    const model = directModel(fake.baseUrl);
    const prompt = benchPrompt();
    let seq = 0;
    const direct = async () => {
      fake.enqueue(REPLY);
      const step = await directStep(model, USER_MESSAGES);
      if (step.text === "") throw new Error("the direct streamText call returned no text");
    };
    const ours = async () => {
      fake.enqueue(REPLY);
      const outcome = await benchTurn(gateway, prompt, `t${++seq}`, true);
      expectCompleted("runTurn", outcome.status, outcome.error);
    };
    return await measureWithCpu(
      "turn, text answer",
      [
        { name: "streamText direct", op: direct },
        { name: "runTurn", baseline: "streamText direct", op: ours },
      ],
      o,
    );
  } finally {
    await fake.close();
  }
}
