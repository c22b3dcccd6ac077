import { z } from "zod";
import {
  HOST_API_GRANT_ALIASES,
  HOST_API_METHOD_SPELLINGS,
  HOST_API_METHODS,
  type HostApiNamespace,
  isHostApiGrantToken,
} from "./host-api-methods.js";
import { didYouMean } from "./suggest.js";
import { parseToolRef } from "./tool-refs.js";
import { quote } from "./text.js";

/**
 * `ui.host_api` (L5673–L5688, R94): per-namespace grants. Most namespaces list method names (or
 * the `read`/`write`/`*` aliases, ruling A1); `tools` lists executa refs, `credentials` provider
 * ids, and `agent` is a structured object (real apps write it that way).
 */

function methodGrant(namespace: HostApiNamespace) {
  const methods: readonly string[] = HOST_API_METHODS[namespace];
  const aliases = Object.keys(HOST_API_GRANT_ALIASES[namespace] ?? {});
  const spellings = Object.keys(HOST_API_METHOD_SPELLINGS)
    .filter((key) => key.startsWith(`${namespace}.`))
    .map((key) => key.slice(namespace.length + 1));
  const accepted = [...methods, ...aliases, "*"];
  return z.array(
    z
      .string()
      .check((ctx) => {
        if (isHostApiGrantToken(namespace, ctx.value)) return;
        ctx.issues.push({
          code: "custom",
          input: ctx.value,
          message: `${quote(ctx.value)} is not a method of host_api.${namespace}: use ${accepted.map((m) => JSON.stringify(m)).join(", ")}.${didYouMean(ctx.value, accepted)}`,
          params: { code: "ui.host_api.unknown_method" },
        });
      })
      .meta({ enum: [...accepted, ...spellings] }),
  );
}

export const ToolRefListSchema = z.array(
  z
    .string()
    .check((ctx) => {
      if (parseToolRef(ctx.value) !== undefined) return;
      ctx.issues.push({
        code: "custom",
        input: ctx.value,
        message: `${quote(ctx.value)} is not a tool ref: use "required:*", "optional:*", "required:<tool_id>", "optional:<tool_id>", a bare "<tool_id>" or "bundled:<handle>"`,
        params: { code: "ui.host_api.tools.ref" },
      });
    })
    .meta({ pattern: "^(?!(?:required|optional):$)(?!\\*$)." }),
);

/** `host_api.agent.session.fixed`: `{client_ids}` (empty = any user-owned client), `null`, or a flag. */
export const AgentFixedGrantSchema = z.union([
  z.looseObject({ client_ids: z.array(z.string()).nullish() }),
  z.boolean(),
  z.null(),
]);

/** `AgentHostApiSpec` (R94, L6576–L6583): each submode is off until enabled. */
export const AgentHostApiSpecSchema = z.looseObject({
  session: z
    .looseObject({
      auto: z.boolean().nullish(),
      fixed: AgentFixedGrantSchema.optional(),
    })
    .nullish(),
  /** Sandbox tool names the agent may use (advisory; unknown names are dropped at runtime). */
  tools: z.array(z.string()).nullish(),
});
export type AgentHostApiSpec = z.infer<typeof AgentHostApiSpecSchema>;

export const UiHostApiSchema = z.looseObject({
  window: methodGrant("window").nullish(),
  tools: ToolRefListSchema.nullish(),
  chat: methodGrant("chat").nullish(),
  storage: methodGrant("storage").nullish(),
  files: methodGrant("files").nullish(),
  llm: methodGrant("llm").nullish(),
  /** The object form is canonical; a list of `session.*` method names is tolerated (warned). */
  agent: z.union([AgentHostApiSpecSchema, methodGrant("agent")]).nullish(),
  image: methodGrant("image").nullish(),
  upload: methodGrant("upload").nullish(),
  web: methodGrant("web").nullish(),
  /** Provider ids (`["google"]`), not method names (R151). */
  credentials: z.array(z.string().min(1)).nullish(),
  apps: methodGrant("apps").nullish(),
  artifact: methodGrant("artifact").nullish(),
  fs: methodGrant("fs").nullish(),
  prefs: methodGrant("prefs").nullish(),
});
export type UiHostApi = z.infer<typeof UiHostApiSchema>;
