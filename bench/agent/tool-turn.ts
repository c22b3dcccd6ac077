// A turn with one tool call, ours against the baseline: the model asks for `tool`, the tool runs,
// the model answers. Baseline: two `streamText` calls with `invokeDirect` between them (what a
// hand-written program does); ours: `runTurn` with `tool` in the prompt.
import type { AgentTool } from "@anna-ai/agent";
import type { FakeProvider } from "@anna-ai/agent/test-kit";
import { jsonSchema, type ModelMessage, tool as sdkTool } from "ai";
import type { MeasureOptions } from "../nexus/measure.js";
import {
  benchGateway,
  benchPrompt,
  directModel,
  directStep,
  expectCompleted,
  USER_MESSAGES,
  benchTurn,
} from "./common.js";
import type { LatencyRow } from "./latency.js";
import { measureWithCpu } from "./measure-cpu.js";

export const TOOL_ARGS = { text: "buy milk" };

export async function toolTurnRows(
  group: string,
  names: { direct: string; ours: string },
  fake: FakeProvider,
  tool: AgentTool,
  invokeDirect: () => Promise<unknown>,
  o: MeasureOptions,
): Promise<LatencyRow[]> {
  const gateway = benchGateway(fake.baseUrl);
  const model = directModel(fake.baseUrl);
  const prompt = benchPrompt([tool]);
  const sdkTools = {
    [tool.name]: sdkTool({
      description: tool.description ?? "",
      inputSchema: jsonSchema(tool.parameters as Parameters<typeof jsonSchema>[0]),
    }),
  };
  const script = () =>
    fake.enqueue(
      { toolCalls: [{ name: tool.name, args: TOOL_ARGS }] },
      { text: ["Noted: ", "buy milk."] },
    );
  const directTurn = async () => {
    script();
    const first = await directStep(model, USER_MESSAGES, sdkTools);
    const call = first.toolCalls[0];
    if (call === undefined) throw new Error("the direct turn's model asked for no tool");
    const output = await invokeDirect();
    const messages: ModelMessage[] = [
      ...USER_MESSAGES,
      { role: "assistant", content: [{ type: "tool-call", ...call }] },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: call.toolCallId,
            toolName: call.toolName,
            output: { type: "json", value: output as never },
          },
        ],
      },
    ];
    const second = await directStep(model, messages, sdkTools);
    if (second.text === "") throw new Error("the direct turn's second step returned no text");
  };
  let seq = 0;
  const ourTurn = async () => {
    script();
    const outcome = await benchTurn(gateway, prompt, `t${++seq}`, true);
    expectCompleted("runTurn with a tool", outcome.status, outcome.error);
    if (outcome.steps !== 2) throw new Error(`expected 2 model calls, got ${outcome.steps}`);
  };
  return measureWithCpu(
    group,
    [
      { name: names.direct, op: directTurn },
      { name: names.ours, baseline: names.direct, op: ourTurn },
    ],
    o,
  );
}
