// @anna-ai/app-runtime/host: the parent-page side of app windows, for any page that hosts them
// (the platform dashboard, `anna-app dev`): window frames on a desk and a dock, the postMessage
// bridge with its source and window checks, the relay of the runtime event stream, token
// refresh. Built to one browser module too (dist/bundle/host.js). docs/app-runtime.md,
// "Hosting app windows".
export { createWindowHost, WindowHost } from "./window-host.js";
export type {
  FormFactor,
  HostedFrame,
  HostReport,
  Size,
  ViewSpec,
  WindowHostOptions,
} from "./window-host.js";
export type { ViewLimits } from "./frame-element.js";
export { SANDBOX } from "./frame-element.js";
export { concerns, postNamedEvent, relayEvent, sameApp } from "./event-relay.js";
export type { RelayTarget, RuntimeEvent } from "./event-relay.js";
export { RUNTIME_EVENT_NAME, RUNTIME_RESYNC_EVENT_NAME } from "./event-stream.js";
export type { FollowOptions, RuntimeResync } from "./event-stream.js";
export type { DroppedMessage, TokenAnswer } from "./message-bridge.js";
export { DEFAULT_API_BASE, jsonRequest, runtimeClient } from "./runtime-client.js";
export type {
  Answer,
  Geometry,
  OpenedWindow,
  RpcBody,
  RuntimeClient,
  WindowInfo,
  WindowLink,
  WindowPatch,
  WireError,
} from "./runtime-client.js";
