// A gateway whose configuration can change at run time (the admin settings): every holder of the
// gateway (chat turns, sampling, embeddings, images, agent sessions) keeps this one object, and
// each call goes to the gateway current when it starts. A call already running finishes on the
// gateway it started on, so switching never cuts a stream.
import type { LlmGateway } from "./types.js";

export interface SwitchableGateway extends LlmGateway {
  /** The calls that start from now on go to `next`. */
  switchTo(next: LlmGateway): void;
  current(): LlmGateway;
}

export function switchableGateway(initial: LlmGateway): SwitchableGateway {
  let active = initial;
  return {
    streamChat: (request, options) => active.streamChat(request, options),
    complete: (request, options) => active.complete(request, options),
    embed: (request, options) => active.embed(request, options),
    generateImage: (request, options) => active.generateImage(request, options),
    editImage: (request, options) => active.editImage(request, options),
    modelFor: (purpose) => active.modelFor(purpose),
    switchTo(next) {
      active = next;
    },
    current: () => active,
  };
}
