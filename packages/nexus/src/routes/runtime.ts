// The app runtime wire served by Nexus: app-core's runtime sub-app (rpc, windows REST, event
// stream) on the server's dispatcher. The windows REST and the stream act for the signed-in user
// (a browser session, or a PAT with `aps:dev`), limited to the app named by `?app_id=` when one
// is; the rpc envelope is authorised by its window token alone (the token names user, app,
// version and window, and the dispatcher checks each against the window it names). Nexus's
// Host guard, body cap and CSRF check run before all of it (createApp).
import {
  HttpError,
  RUNTIME_API,
  RUNTIME_RPC_ROUTE,
  createRuntimeApp,
  type RuntimeCaller,
} from "@anna-ai/app-core/http";
import { Hono, type Context } from "hono";
import { requireScopes, requireUser } from "../http/guards.js";
import type { AppDeps, Env, Principal } from "../http/context.js";
import type { NexusRuntime } from "../runtime/nexus-runtime.js";
import { rowId } from "../runtime/sql-app-catalog.js";
import { mountMobileShell } from "./mobile-shell.js";

function isRpc(c: Context): boolean {
  return new URL(c.req.url).pathname === RUNTIME_RPC_ROUTE;
}

function callerOf(c: Context): RuntimeCaller {
  // The rpc route asks only for the app to bind the call to; the window token carries it.
  if (isRpc(c)) return { userId: "" };
  const principal = c.get("principal") as Principal;
  const raw = c.req.query("app_id");
  if (raw === undefined || raw === "") return { userId: String(principal.user.id) };
  if (rowId(raw) === undefined) {
    throw new HttpError(
      "invalid_arg",
      `app_id must be an app's numeric id, as \`anna-nexus admin load-app\` prints it (got ${JSON.stringify(raw.slice(0, 40))})`,
    );
  }
  return { userId: String(principal.user.id), appId: raw };
}

export function runtimeRoutes(deps: AppDeps, runtime: NexusRuntime): Hono<Env> {
  const app = new Hono<Env>();
  // Authentication answers in Nexus's own error shape (the parent's onError), before the
  // runtime sub-app, whose errors are the Host API's.
  app.use(`${RUNTIME_API}/*`, async (c, next) => {
    if (!isRpc(c)) {
      const principal = await requireUser(c, deps);
      requireScopes(principal, ["aps:dev"]);
    }
    await next();
  });
  mountMobileShell(app, deps, runtime);
  app.route(
    "/",
    createRuntimeApp({
      dispatcher: runtime.dispatcher,
      caller: callerOf,
      windowUrl: runtime.windowUrl,
      streams: runtime.streams,
    }),
  );
  return app;
}
