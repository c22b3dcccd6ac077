// The mobile shell (spec "Mobile Support", "Testing without a device"):
// `GET /api/v1/anna-apps/runtime/mobile-shell?wid=<window_uuid>` serves the page the Anna mobile
// app shows an app window in: one full-screen window at a time, a stack that `window.open_view`
// pushes onto, Back to the window below, the mobile entry of the view. It is the dashboard's
// second page (packages/dashboard/src/mobile-shell.html) on the same window host, in the mobile
// form factor.
// The first request may authenticate with `Authorization: Bearer <developer token>` (what a
// device, or a desktop browser with a request interceptor, sends); the shell's own calls cannot
// carry that header, so the token comes back as an HttpOnly, SameSite=Strict cookie scoped to the
// runtime path (guards.ts RUNTIME_COOKIE). A signed-in browser session works as it is.
import path from "node:path";
import { RUNTIME_API } from "@anna-ai/app-core/http";
import { setCookie } from "hono/cookie";
import type { Hono } from "hono";
import { NexusError } from "../core/errors.js";
import type { AppDeps, Ctx, Env, Principal } from "../http/context.js";
import { RUNTIME_COOKIE, RUNTIME_COOKIE_PATH } from "../http/guards.js";
import { setDashboardHeaders } from "../http/page-headers.js";
import { bearerOf } from "../http/token-auth.js";
import type { NexusRuntime } from "../runtime/nexus-runtime.js";
import { notBuilt, readIfFile } from "./dashboard.js";

export const MOBILE_SHELL_ROUTE = `${RUNTIME_API}/mobile-shell`;
/** The built page in the dashboard's dist/ (Vite's second input). */
export const MOBILE_SHELL_FILE = "mobile-shell.html";
/** The cookie never outlives its token, nor this: a device signs the shell in again daily. */
const RUNTIME_COOKIE_MAX_S = 24 * 60 * 60;
const WINDOW_ID = /^[A-Za-z0-9-]{1,64}$/;

/** Mounted by runtimeRoutes, behind its authentication (a session, or a PAT with `aps:dev`). */
export function mountMobileShell(app: Hono<Env>, deps: AppDeps, runtime: NexusRuntime): void {
  app.get(MOBILE_SHELL_ROUTE, async (c) => {
    const principal = c.get("principal") as Principal;
    const wid = c.req.query("wid") ?? "";
    if (!WINDOW_ID.test(wid)) {
      throw new NexusError(
        "bad_request",
        `wid must be a window's uuid, as POST ${RUNTIME_API}/windows answers it (got ${JSON.stringify(wid.slice(0, 40))})`,
      );
    }
    const windows = await runtime.dispatcher.listWindows(String(principal.user.id));
    const win = windows.find((w) => w["window_uuid"] === wid);
    if (win === undefined || win["status"] === "closed" || win["status"] === "crashed") {
      // Another user's window is as absent as one that never was.
      throw new NexusError(
        "not_found",
        `no open window ${wid} of yours: open the app first (from the dashboard, or POST ${RUNTIME_API}/windows) and use the window_uuid it answers`,
      );
    }
    const distDir = deps.dashboard?.distDir;
    const html =
      distDir === undefined ? undefined : await readIfFile(path.join(distDir, MOBILE_SHELL_FILE));
    if (html === undefined) return notBuilt(c, distDir, MOBILE_SHELL_FILE);
    // Only a token that came in the header is remembered; one that came in the cookie is there.
    const bearer = bearerOf(c);
    if (principal.via === "pat" && bearer !== undefined) rememberToken(c, deps, principal, bearer);
    setDashboardHeaders(c, "no-store");
    c.header("Content-Type", "text/html; charset=utf-8");
    return c.body(new Uint8Array(html));
  });
}

function rememberToken(
  c: Ctx,
  deps: AppDeps,
  principal: Extract<Principal, { via: "pat" }>,
  token: string,
) {
  const leftS = Math.floor((principal.token.expiresAt - deps.clock.now()) / 1000);
  setCookie(c, RUNTIME_COOKIE, token, {
    httpOnly: true,
    sameSite: "Strict",
    secure: c.get("secure"),
    path: RUNTIME_COOKIE_PATH,
    maxAge: Math.max(1, Math.min(leftS, RUNTIME_COOKIE_MAX_S)),
  });
}
