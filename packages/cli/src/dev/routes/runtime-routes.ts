// The production runtime wire the app's SDK talks to: the rpc envelope, the windows REST API and
// the event stream (Reference L6327).
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Dispatcher } from "@anna-ai/app-core";
import type { AnswerCall } from "../answer-call.js";
import { parseWindowPatch, windowsRest } from "../dashboard/window-patch.js";
import { decodePathSegment } from "../guard/path-segment.js";
import type { SseStreams } from "../guard/sse-streams.js";
import { headerOf, jsonFields, readJsonBody, sendError, sendJson } from "../http-util.js";
import type { WindowLinks } from "../window-links.js";

const API = "/api/v1/anna-apps/runtime";

export interface RuntimeRouteDeps {
  dispatcher: Dispatcher;
  userId: string;
  appId: string;
  links: WindowLinks;
  answerCall: AnswerCall;
  /** The open event streams, which the server keeps alive, bounds and ends on close. */
  streams: SseStreams;
}

/** Handles the runtime routes; false for any other request. */
export async function runtimeRoute(
  req: IncomingMessage,
  res: ServerResponse,
  p: string,
  deps: RuntimeRouteDeps,
): Promise<boolean> {
  const { dispatcher, userId, links } = deps;
  const method = req.method ?? "GET";
  if (p === `${API}/rpc` && method === "POST") {
    await rpc(req, res, deps);
    return true;
  }
  if (p === `${API}/events/stream` && method === "GET") {
    eventStream(res, deps);
    return true;
  }
  if (p === `${API}/windows`) {
    if (method === "GET") {
      sendJson(res, 200, { windows: await dispatcher.listWindows(userId) });
      return true;
    }
    if (method === "POST") {
      const body = jsonFields(await readJsonBody(req));
      const view = typeof body.view === "string" ? body.view : undefined;
      // entry_payload is any JSON (a string, a list…); no payload is not `{}`: a single-instance
      // re-open then keeps the window's entry_payload.
      const opened = await windowsRest(() =>
        dispatcher.openWindow(view, {
          userId,
          ...(body.payload === undefined ? {} : { payload: body.payload }),
        }),
      );
      const wid = String(opened.window.window_uuid);
      sendJson(res, 201, { ...opened, url: links.windowUrl(wid, opened.token) });
      return true;
    }
  }
  if (p.startsWith(`${API}/windows/`)) {
    const wid = decodePathSegment(p.slice(`${API}/windows/`.length));
    if (method === "GET") {
      const link = await links.windowLink(wid);
      if (link === undefined) sendError(res, 404, "not_found", `no live window ${wid}`);
      else sendJson(res, 200, link);
      return true;
    }
    if (method === "PATCH") {
      const { patch, focus } = parseWindowPatch(await readJsonBody(req));
      const window = await windowsRest(async () => {
        const patched = await dispatcher.patchWindow(wid, patch, userId);
        if (!focus) return patched;
        await dispatcher.windows.focus(wid);
        return dispatcher.getWindow(wid);
      });
      sendJson(res, 200, { window });
      return true;
    }
    if (method === "DELETE") {
      await windowsRest(() => dispatcher.closeWindow(wid, "user", userId));
      sendJson(res, 200, { ok: true });
      return true;
    }
  }
  return false;
}

async function rpc(
  req: IncomingMessage,
  res: ServerResponse,
  deps: RuntimeRouteDeps,
): Promise<void> {
  const body = jsonFields(await readJsonBody(req));
  const { id, window_uuid: wid, ns, method } = body;
  if (
    (typeof id !== "string" && typeof id !== "number") ||
    typeof wid !== "string" ||
    typeof ns !== "string" ||
    typeof method !== "string"
  ) {
    sendJson(res, 400, {
      ok: false,
      error: {
        code: "invalid_arg",
        message: "the envelope needs id, window_uuid, ns and method",
      },
    });
    return;
  }
  const args = body.args ?? {};
  const abort = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) abort.abort();
  });
  const token = headerOf(req, "x-anna-app-token");
  const answer = await deps.answerCall(token, wid, String(id), ns, method, args, abort.signal);
  sendJson(res, 200, { id, ...answer });
}

function eventStream(res: ServerResponse, deps: RuntimeRouteDeps): void {
  const { dispatcher, userId, appId, streams } = deps;
  streams.open(res, `${API}/events/stream`);
  const unsubscribe = dispatcher.events.subscribe({ userId, appId }, (event) => {
    streams.write(res, `event: data_model/AnnaAppEvent\ndata: ${JSON.stringify(event)}\n\n`);
  });
  res.on("close", unsubscribe);
}
