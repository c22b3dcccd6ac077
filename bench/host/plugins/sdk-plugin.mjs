// Ours: the same tools as the floor plugin, written with @anna-ai/executa-sdk. `reverse` makes one
// `storage/get` through the SDK's bound storage client and times it; `flood` writes one huge
// line straight to stdout (bypassing the SDK) before returning, as a misbehaving plugin would.
import { performance } from "node:perf_hooks";
import { definePlugin, p } from "@anna-ai/executa-sdk";

const FLOOD_CHUNK_BYTES = 1024 * 1024;

const plugin = definePlugin({
  manifest: {
    name: "bench-sdk",
    version: "0.1.0",
    description: "Echo plugin written with the Executa SDK (benchmark).",
    host_capabilities: ["aps.kv"],
  },
  tools: {
    echo: {
      description: "Echo the text.",
      parameters: { text: p.string() },
      handler: (args) => ({ text: args.text }),
    },
    reverse: {
      description: "One reverse storage/get.",
      parameters: {},
      handler: async (_args, ctx) => {
        const startedMs = performance.now();
        await ctx.storage.get("bench", { scope: "tool" });
        return { reverse_ms: performance.now() - startedMs };
      },
    },
    flood: {
      description: "One oversized line, then the reply.",
      parameters: { bytes: p.integer() },
      handler: (args) => {
        const chunk = Buffer.alloc(FLOOD_CHUNK_BYTES, 0x78);
        for (let left = args.bytes; left > 0; left -= FLOOD_CHUNK_BYTES) {
          process.stdout.write(left >= FLOOD_CHUNK_BYTES ? chunk : chunk.subarray(0, left));
        }
        process.stdout.write("\n");
        return { survived: true };
      },
    },
  },
});

await plugin.serve();
