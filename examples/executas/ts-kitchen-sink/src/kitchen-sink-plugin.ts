// ts-kitchen-sink: one tool per reverse-RPC family, each used the way the spec recommends.
// Host tests use it as a fixture, so every tool returns what it got back from the host.

import { definePlugin, p } from "@anna-ai/executa-sdk";

/** `big_report` returns this much by default: twice the file-transport threshold (H2). */
const BIG_REPORT_BYTES = 1024 * 1024;
/** Steps `long_task` reports through `executa/progress`. */
const DEFAULT_STEPS = 3;
/** What `structured_summary` asks the model to fill. */
const SUMMARY_SCHEMA = {
  type: "object",
  properties: {
    summary: { type: "string" },
    keywords: { type: "array", items: { type: "string" } },
    sentiment: { type: "string", enum: ["positive", "neutral", "negative"] },
  },
  required: ["summary", "keywords", "sentiment"],
  additionalProperties: false,
} as const;

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // Even with responseFormat the final parse is ours (L1862): keep the raw text instead.
    return null;
  }
}

function redact(secret: string | undefined): string | null {
  if (secret === undefined || secret === "") return null;
  return secret.length <= 8 ? "…" : `${secret.slice(0, 4)}…${secret.slice(-4)}`;
}

export const kitchenSinkPlugin = definePlugin({
  manifest: {
    name: "ts-kitchen-sink",
    display_name: "Kitchen Sink",
    version: "0.1.0",
    description:
      "Exercises every host capability once: sampling, storage, files, agent, image, upload, embeddings, web, connected accounts, progress.",
    author: "Anna examples",
    icon: "🧪",
    category: "developer",
    license: "Apache-2.0",
    host_capabilities: [
      "llm.sample",
      "llm.agent.auto",
      "aps.kv",
      "aps.files",
      "llm.image",
      "host.upload",
      "llm.embed",
      "web.search",
      "web.fetch",
    ],
    credentials: [
      {
        name: "KITCHEN_TOKEN",
        display_name: "Kitchen token",
        description: "Optional. Reported (redacted) by `credentials_check`.",
        required: false,
      },
      {
        // Maps to the `google` OAuth provider, so each invoke carries a credentials_token that
        // opens credentials/* for google accounts (R66).
        name: "GOOGLE_ACCESS_TOKEN",
        display_name: "Google account",
        description:
          "Optional. `account_token` reads connected Google accounts through credentials/*.",
        required: false,
        sensitive: true,
      },
    ],
  },
  tools: {
    structured_summary: {
      description:
        "Summarise text as JSON {summary, keywords, sentiment} via sampling with a JSON Schema.",
      parameters: { text: p.string({ description: "Text to summarise." }) },
      timeout: 120,
      handler: async ({ text }, ctx) => {
        const result = await ctx.sampling.createMessage({
          prompt: `Reply with a JSON object summarising this text:\n${text}`,
          maxTokens: 512,
          responseFormat: {
            type: "json_schema",
            json_schema: { name: "summary_analysis", strict: true, schema: SUMMARY_SCHEMA },
          },
          // Degrade to JSON mode rather than fail when the model lacks strict schemas (-32010).
          onUnsupported: "json_object",
        });
        return {
          parsed: parseJson(result.content.text),
          raw: result.content.text,
          meta: result._meta ?? null,
        };
      },
    },
    remember: {
      description:
        "Store a value under a key, read it back, list the keys, then delete it (APS KV).",
      parameters: { key: p.string(), value: p.string() },
      handler: async ({ key, value }, ctx) => {
        const written = await ctx.storage.set(`kv/${key}`, { value }, { ttlSeconds: 3600 });
        const read = await ctx.storage.get<{ value: string }>(`kv/${key}`);
        const listed = await ctx.storage.list({ prefix: "kv/" });
        const deleted = await ctx.storage.delete(`kv/${key}`);
        return {
          etag: written.etag,
          read: read.value?.value ?? null,
          keys: listed.items.map((item) => item.key),
          deleted: deleted.deleted,
        };
      },
    },
    save_file: {
      description:
        "Save text as a file in APS (upload_begin → PUT → upload_complete) and return a download URL.",
      parameters: { path: p.string(), content: p.string() },
      handler: async ({ path, content }, ctx) => {
        const stored = await ctx.files.put(path, content, "text/plain");
        const link = await ctx.files.downloadUrl(path);
        const listed = await ctx.files.list({ prefix: path.split("/")[0] ?? "" });
        return { stored, url: link.url, files: listed.items.map((item) => item.path) };
      },
    },
    agent_task: {
      description:
        "Run one agent turn in a fresh session (create → run → delete), plus a one-shot completion.",
      parameters: { task: p.string() },
      timeout: 300,
      handler: async ({ task }, ctx) => {
        const session = await ctx.agent.createSession({ label: "kitchen-sink" });
        try {
          const run = await ctx.agent.run(session.app_session_uuid, task);
          const completion = await ctx.agent.complete({
            prompt: `In one line: ${task}`,
            maxTokens: 64,
          });
          return {
            session: session.app_session_uuid,
            answer: run.text,
            frames: run.frames.length,
            completion,
          };
        } finally {
          await ctx.agent.delete(session.app_session_uuid);
        }
      },
    },
    draw: {
      description: "Generate one image from a prompt.",
      parameters: { prompt: p.string(), size: p.string({ default: "1024x1024" }) },
      timeout: 180,
      handler: async ({ prompt, size }, ctx) => {
        const result = await ctx.image.generate({ prompt, size, n: 1 });
        return { images: result.images, model: result.model ?? null };
      },
    },
    publish_artifact: {
      description:
        "Hand a text artifact to the host twice: inline, and via negotiate → PUT → confirm.",
      parameters: { filename: p.string({ default: "artifact.txt" }), content: p.string() },
      handler: async ({ filename, content }, ctx) => {
        const inline = await ctx.upload.inline({
          filename,
          mimeType: "text/plain",
          content,
          purpose: "user_artifact",
        });
        const presigned = await ctx.upload.presigned({
          filename,
          mimeType: "text/plain",
          content,
          purpose: "user_artifact",
        });
        return {
          inline: inline.download_url,
          presigned: presigned.download_url,
          r2_key: presigned.r2_key,
        };
      },
    },
    embed: {
      description: "Embed a few strings and report the vector sizes.",
      parameters: { texts: p.array(p.string()) },
      handler: async ({ texts }, ctx) => {
        const result = await ctx.embeddings.create({ input: texts });
        return { model: result.model, dimensions: result.data.map((d) => d.embedding.length) };
      },
    },
    long_task: {
      description: "Pretend to work in steps, reporting progress after each.",
      parameters: { steps: p.integer({ default: DEFAULT_STEPS }) },
      handler: async ({ steps }, ctx) => {
        for (let step = 1; step <= steps; step++) {
          await new Promise((resolve) => setImmediate(resolve));
          ctx.progress("tool_update", { step, total: steps });
        }
        return { steps };
      },
    },
    big_report: {
      description: "Return a large report (default 1 MiB); it travels through file transport.",
      parameters: { bytes: p.integer({ default: BIG_REPORT_BYTES }) },
      handler: ({ bytes }) => ({ size: bytes, report: "r".repeat(bytes) }),
    },
    search_web: {
      description: "Search the web through the host (web/search) and list title, URL and snippet.",
      parameters: {
        query: p.string({ description: "What to search for." }),
        max_results: p.integer({ default: 5 }),
      },
      timeout: 90,
      handler: async ({ query, max_results }, ctx) => {
        const found = await ctx.web.search(query, { maxResults: max_results });
        return {
          provider_tier: found.provider_tier,
          results: found.results.map((r) => ({ title: r.title, url: r.url, snippet: r.snippet })),
        };
      },
    },
    read_page: {
      description:
        "Fetch one or more pages through the host (web/fetch) and report what came back per page.",
      parameters: {
        urls: p.array(p.string(), { description: "1 to 10 URLs." }),
        max_chars: p.integer({ default: 2000 }),
      },
      timeout: 90,
      handler: async ({ urls, max_chars }, ctx) => {
        const result = await ctx.web.fetch(urls, { maxChars: max_chars, format: "text" });
        // One broken page never fails the batch: report each page's own outcome.
        return {
          pages: result.pages.map((page) => ({
            url: page.url,
            ok: page.ok,
            title: page.title ?? null,
            content: page.content ?? null,
            truncated: page.truncated ?? false,
            error: page.error ?? null,
          })),
        };
      },
    },
    account_token: {
      description:
        "List the user's connected accounts of a provider and get a short-lived token for one (credentials/*).",
      parameters: {
        provider: p.string({ default: "google" }),
        account: p.string({ required: false, description: "account_id; omit for the default." }),
      },
      handler: async ({ provider, account }, ctx) => {
        const accounts = await ctx.accounts.listAccounts(provider);
        const token = await ctx.accounts.getToken(provider, { accountId: account ?? null });
        // The token itself never leaves the plugin: only a redacted preview does.
        return {
          accounts: accounts.map((a) => ({ account_id: a.account_id, is_default: a.is_default })),
          account_id: token.account_id,
          expires_at: token.expires_at,
          preview: redact(token.access_token),
        };
      },
    },
    credentials_check: {
      description:
        "Say whether KITCHEN_TOKEN reached the plugin (invoke context first, then environment).",
      parameters: {},
      handler: (_args, ctx) => ({
        from_context: "KITCHEN_TOKEN" in ctx.credentials,
        preview: redact(ctx.credential("KITCHEN_TOKEN")),
      }),
    },
  },
});
