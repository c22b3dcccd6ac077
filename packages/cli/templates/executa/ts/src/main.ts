#!/usr/bin/env node
// {{display_name}} — an Anna Executa plugin (protocol 2.0) written with @anna-ai/executa-sdk.
//
// `definePlugin` builds the manifest `describe` returns from the tools map; `serve()` speaks
// JSON-RPC 2.0 over stdio until stdin closes: initialize, describe, invoke, health, shutdown,
// argument checks (-32602), console output diverted to stderr.
//
//   npm install && npm run build
//   anna-app executa dev --dir . --invoke hello --args '{"name":"Ada"}'
import { definePlugin, p, RpcError } from "@anna-ai/executa-sdk";

/** The optional credential `hello` greets with. */
const GREETING_CREDENTIAL = "HELLO_GREETING";

export const plugin = definePlugin({
  manifest: {
    // Identity is the tool_id in executa.json ({{tool_id}}), not `name`.
    name: "{{slug}}",
    display_name: "{{display_name}}",
    version: "0.1.0",
    description: "{{display_name}}: says hello.",
    credentials: [
      {
        name: GREETING_CREDENTIAL,
        display_name: "Greeting",
        description: "The word to greet with. Defaults to Hello.",
        required: false,
        sensitive: false,
      },
    ],
  },
  tools: {
    hello: {
      description: "Greet someone by name.",
      parameters: { name: p.string({ description: "Who to greet." }) },
      handler: ({ name }, ctx) => {
        if (name.trim() === "") {
          throw new RpcError(-32602, "Invalid params for hello: name must be a non-empty string");
        }
        // The invoke's context.credentials win; the environment is the local-dev fallback.
        const greeting = ctx.credential(GREETING_CREDENTIAL);
        const source =
          ctx.credentials[GREETING_CREDENTIAL] !== undefined
            ? "context"
            : greeting !== undefined
              ? "env"
              : "default";
        ctx.log.info("greeting", { source });
        return { message: `${greeting ?? "Hello"}, ${name}!`, greeting_source: source };
      },
    },
  },
});

await plugin.serve();
