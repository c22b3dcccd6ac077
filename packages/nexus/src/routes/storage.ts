// APS over REST, the paths the published CLI forwards `storage/*` and `files/*` to
// (real-world-cli.md §7): KV at /kv and /list, objects at /files, /files/init, /files/finalize
// and /files/url. `scope` is always a query parameter; query-kind calls carry their other
// params in the query (non-strings JSON-encoded), body-kind calls in a JSON body. Results are
// the service results as they are, so a forwarding client hands them to the plugin unchanged.
import { Hono } from "hono";
import type { StorageScope } from "@anna-ai/app-schema";
import {
  type FilesService,
  type ServiceContext,
  type StorageGrant,
  type StorageService,
  checkScope,
} from "@anna-ai/executa-host";
import { z } from "zod";
import { NexusError } from "../core/errors.js";
import type { AppDeps, Ctx, Env } from "../http/context.js";
import { readJson } from "../http/json-body.js";
import { authorizeStorage, type StorageCaller } from "../storage/authorize-storage.js";
import { InvokeCallBudget } from "../storage/invoke-call-budget.js";
import { toHttpError } from "../storage/storage-errors.js";

export interface StorageServices {
  kv: StorageService;
  files: FilesService;
}

type Params = Record<string, unknown>;
const SCOPES: readonly string[] = ["user", "tool", "app"];
/** Query values the CLI JSON-encodes (`limit=50`, `ttl=600`); strings stay strings. */
const NUMERIC_QUERY = new Set(["limit", "ttl", "ttl_seconds", "expires_in", "size_bytes"]);
const NEVER_ABORTED = new AbortController().signal;

function queryParams(c: Ctx): Params {
  const out: Params = {};
  for (const [k, v] of Object.entries(c.req.query())) {
    if (k === "scope" || k === "tool_id" || k === "app_id") continue;
    out[k] = NUMERIC_QUERY.has(k) && /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v;
  }
  return out;
}

/**
 * The scope of the call: `?scope=`, else the narrowest one the caller named an owner for
 * (`app_id` → app, `tool_id` → tool), else `user`. The named scope must be one the caller may use
 * and, for tool and app, name its owner.
 */
function resolveScope(c: Ctx, caller: StorageCaller): StorageScope {
  const raw = c.req.query("scope");
  const scope = (
    raw === undefined || raw === ""
      ? caller.appId !== undefined
        ? "app"
        : caller.toolId !== undefined
          ? "tool"
          : "user"
      : raw
  ) as StorageScope;
  if (!SCOPES.includes(scope)) {
    throw new NexusError(
      "invalid_request",
      `scope must be "user", "tool" or "app" (got ${JSON.stringify(raw)})`,
    );
  }
  const granted = checkScope(scope, [...caller.allowedScopes].sort());
  // The spec's message (R40): `storage_token does not permit scope='app'; allowed=['tool', 'user']`.
  if (!granted.ok) throw new NexusError("not_granted", granted.message);
  if (scope === "tool" && caller.toolId === undefined) {
    throw new NexusError("invalid_request", "scope 'tool' needs the tool: add ?tool_id=<tool id>");
  }
  if (scope === "app" && caller.appId === undefined) {
    throw new NexusError("invalid_request", "scope 'app' needs the app: add ?app_id=<app id>");
  }
  return scope;
}

function serviceContext(caller: StorageCaller, deps: AppDeps): ServiceContext<StorageGrant> {
  return {
    userId: caller.userId,
    toolId: caller.toolId ?? "",
    invokeId: caller.invokeId,
    pluginName: "",
    tool: "",
    deadlineMs: deps.clock.now() + 60_000,
    signal: NEVER_ABORTED,
    grant: caller.grant,
    ...(caller.appId === undefined ? {} : { app: { appId: caller.appId, appScopeGranted: true } }),
  };
}

const anyObject = z.record(z.string(), z.unknown());

export function storageRoutes(deps: AppDeps, services: StorageServices): Hono<Env> {
  const app = new Hono<Env>();
  const budget = new InvokeCallBudget();

  /** Runs one service call for the authorised caller; service errors become HTTP errors. */
  async function call<T>(
    c: Ctx,
    params: Params,
    fn: (p: never, ctx: ServiceContext<StorageGrant>) => Promise<T>,
  ): Promise<T> {
    const caller = await authorizeStorage(c, deps, budget);
    const scope = resolveScope(c, caller);
    try {
      return await fn({ ...params, scope } as never, serviceContext(caller, deps));
    } catch (err) {
      throw toHttpError(err);
    }
  }

  app.get("/kv", async (c) => {
    const params = queryParams(c);
    const result = await call(c, params, (p, x) => services.kv.get(p, x));
    return c.json({ key: params["key"], ...result });
  });
  app.put("/kv", async (c) => {
    const body = await readJson(c, anyObject);
    const result = await call(c, body, (p, x) => services.kv.set(p, x));
    return c.json({ ok: true, key: body["key"], ...result });
  });
  app.delete("/kv", async (c) =>
    c.json(await call(c, queryParams(c), (p, x) => services.kv.delete(p, x))),
  );
  app.get("/list", async (c) =>
    c.json(await call(c, queryParams(c), (p, x) => services.kv.list(p, x))),
  );

  app.post("/files/init", async (c) => {
    const body = await readJson(c, anyObject);
    // The App-direct SDK says `size` (real-world-cli.md §7).
    if (body["size_bytes"] === undefined && body["size"] !== undefined)
      body["size_bytes"] = body["size"];
    return c.json(await call(c, body, (p, x) => services.files.uploadBegin(p, x)));
  });
  app.post("/files/finalize", async (c) =>
    c.json(
      await call(c, await readJson(c, anyObject), (p, x) => services.files.uploadComplete(p, x)),
    ),
  );
  app.get("/files/url", async (c) => {
    const params = queryParams(c);
    // REST names the lifetime `ttl` (R48, 1..3600).
    if (params["ttl_seconds"] === undefined && params["ttl"] !== undefined)
      params["ttl_seconds"] = params["ttl"];
    return c.json(await call(c, params, (p, x) => services.files.downloadUrl(p, x)));
  });
  app.get("/files", async (c) =>
    c.json(await call(c, queryParams(c), (p, x) => services.files.list(p, x))),
  );
  app.delete("/files", async (c) =>
    c.json(await call(c, queryParams(c), (p, x) => services.files.delete(p, x))),
  );
  return app;
}
