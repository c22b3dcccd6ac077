// The inspector's storage panel: the `storage/*` rows the plugin reads and writes, listed, read,
// edited and deleted through the very service its calls reach (memory, a mock file, or the real
// APS storage after `--storage real`), as the dev user and this plugin's tool id. Every call is a
// JSON POST (the page's one guard for writes); values are shown redacted like everything else.
import type { Env, Hono } from "hono";
import { HttpError, readJsonBody } from "@anna-ai/app-core/http";
import { RpcError } from "@anna-ai/jsonrpc";
import type { StorageService } from "@anna-ai/executa-host";
import { DEV_USER_ID } from "../executa-dev/session.js";
import type { TextRedactor } from "./inspector-log.js";

/** The scopes a plugin's rows live in (`app` is an app window's, never a plugin's). */
const SCOPES = ["tool", "user"] as const;
type PluginScope = (typeof SCOPES)[number];
/** One page of keys; the page asks for the next with the cursor. */
const LIST_LIMIT = 200;
const CALL_TIMEOUT_MS = 30_000;

export interface StorageRoutesOptions {
  storage: StorageService | undefined;
  toolId: string;
  redactor: TextRedactor;
  /** The answer with the inspector's security headers. */
  json(value: unknown): Response;
}

export function mountStorageRoutes<E extends Env>(
  app: Hono<E>,
  options: StorageRoutesOptions,
): void {
  const service = (): StorageService => {
    if (options.storage === undefined) {
      throw new HttpError(
        "executa_unavailable",
        "storage is off in this run (--storage off); start it with --storage memory (the default), --storage mock or --storage real",
      );
    }
    return options.storage;
  };
  const ctx = () => ({
    userId: DEV_USER_ID,
    toolId: options.toolId,
    invokeId: "inspector",
    pluginName: "inspector",
    tool: "",
    deadlineMs: Date.now() + CALL_TIMEOUT_MS,
    signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    grant: {},
  });
  const answer = async (call: () => Promise<unknown>) => {
    try {
      return options.json(options.redactor.redact(await call()));
    } catch (error) {
      // The service's own refusal (a bad key, a value over the object cap): the page's words.
      if (error instanceof RpcError) throw new HttpError("invalid_arg", error.message);
      throw error;
    }
  };

  app.post("/api/storage/list", async (c) => {
    const body = record(await readJsonBody(c.req.raw), "/api/storage/list");
    const scope = scopeOf(body);
    const prefix = optionalString(body, "prefix");
    const cursor = optionalString(body, "cursor");
    return answer(async () => {
      const page = await service().list(
        {
          scope,
          limit: LIST_LIMIT,
          ...(prefix === undefined ? {} : { prefix }),
          ...(cursor === undefined ? {} : { cursor }),
        },
        ctx(),
      );
      return { scope, items: page.items, next_cursor: page.next_cursor };
    });
  });
  app.post("/api/storage/get", async (c) => {
    const body = record(await readJsonBody(c.req.raw), "/api/storage/get");
    const scope = scopeOf(body);
    const key = keyOf(body);
    return answer(async () => ({ scope, key, ...(await service().get({ scope, key }, ctx())) }));
  });
  app.post("/api/storage/set", async (c) => {
    const body = record(await readJsonBody(c.req.raw), "/api/storage/set");
    const scope = scopeOf(body);
    const key = keyOf(body);
    if (!("value" in body)) {
      throw new HttpError(
        "invalid_arg",
        'POST /api/storage/set takes {"scope", "key", "value"}: "value" is missing (any JSON, null included)',
      );
    }
    return answer(async () => ({
      scope,
      key,
      ...(await service().set({ scope, key, value: body.value }, ctx())),
    }));
  });
  app.post("/api/storage/delete", async (c) => {
    const body = record(await readJsonBody(c.req.raw), "/api/storage/delete");
    const scope = scopeOf(body);
    const key = keyOf(body);
    return answer(async () => ({
      scope,
      key,
      ...(await service().delete({ scope, key }, ctx())),
    }));
  });
}

function record(body: unknown, route: string): Record<string, unknown> {
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw new HttpError("invalid_arg", `POST ${route} takes a JSON object`);
  }
  return body as Record<string, unknown>;
}

function scopeOf(body: Record<string, unknown>): PluginScope {
  const scope = body.scope ?? "tool";
  if (!(SCOPES as readonly unknown[]).includes(scope)) {
    throw new HttpError(
      "invalid_arg",
      `"scope" must be one of ${SCOPES.join(", ")} (a plugin's rows; omitted = tool), got ${JSON.stringify(scope)}`,
    );
  }
  return scope as PluginScope;
}

function keyOf(body: Record<string, unknown>): string {
  const key = body.key;
  if (typeof key !== "string" || key === "") {
    throw new HttpError(
      "invalid_arg",
      `"key" must be a non-empty string, got ${JSON.stringify(key)}`,
    );
  }
  return key;
}

function optionalString(body: Record<string, unknown>, name: string): string | undefined {
  const value = body[name];
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value !== "string") {
    throw new HttpError("invalid_arg", `"${name}" must be a string, got ${JSON.stringify(value)}`);
  }
  return value;
}
