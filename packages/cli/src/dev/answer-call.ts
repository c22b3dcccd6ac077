// The harness's one call path, shared by the rpc route and fixture replays.
import type { CallResult, Dispatcher } from "@anna-ai/app-core";
import { callWarning } from "./call-warnings.js";
import { outcomeOf, type DevPanel } from "./dev-panel.js";
import type { DevMocks } from "./dev-mocks.js";
import type { SessionRecorder } from "./session-recorder.js";

export type AnswerCall = (
  token: string | undefined,
  wid: string,
  id: string,
  ns: string,
  method: string,
  args: unknown,
  signal?: AbortSignal,
) => Promise<CallResult>;

export function createAnswerCall(deps: {
  mocks: DevMocks;
  dispatcher: Dispatcher;
  panel: DevPanel;
  recorder: SessionRecorder | undefined;
}): AnswerCall {
  const { mocks, dispatcher, panel, recorder } = deps;
  /** One Host API call as the iframe makes it: mocks, else the dispatcher; always the panel. */
  return async function answerCall(token, wid, id, ns, method, args, signal) {
    const started = performance.now();
    const mocked = await mocks.answer(token, wid, ns, method, args);
    if (mocked !== undefined) {
      recorder?.req({ id, ns, method, args, window_uuid: wid });
      recorder?.res({ id, ns, method, ...mocked });
    }
    const answer =
      mocked ??
      (await dispatcher.call(token, ns, method, args, {
        windowUuid: wid,
        ...(signal === undefined ? {} : { signal }),
      }));
    const ms = Math.round((performance.now() - started) * 100) / 100;
    const warning = answer.ok ? callWarning(ns, method, args) : undefined;
    panel.record({
      id,
      ts: Date.now(),
      window_uuid: wid,
      ns,
      method,
      args,
      outcome: outcomeOf(answer),
      ms,
      ...(answer.ok ? { result: answer.result } : { error: answer.error }),
      ...(warning === undefined ? {} : { warning }),
    });
    return answer;
  };
}
