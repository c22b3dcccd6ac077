// `anna-app executa dev`: run one Tool plugin in isolation with the full handshake and the
// offline host services, as a REPL or one shot (Reference L11585–11640, R167). This module holds
// only the flag table, so `--help` stays instant; the implementation loads on run (see
// executa-dev/load-runner.ts for why it may come from a single-file bundle).
import type { CommandSpec, ParsedArgs } from "../cli/args.js";
import type { CliIo } from "../cli/io.js";
import { loadRunner } from "../executa-dev/load-runner.js";
import { SERVICE_FLAGS } from "../executa-dev/service-flags.js";
import type { CommandModule } from "./registry.js";

const NAME = "executa dev";

export const spec: CommandSpec = {
  name: NAME,
  summary: "Run one Tool plugin in isolation: REPL or one-shot describe/health/invoke",
  description:
    "Starts the plugin exactly as the Anna Agent does (initialize, describe, invoke, shutdown) and " +
    "answers its reverse calls (sampling, storage, files, agent, image, upload, embeddings, web, " +
    "credentials) with " +
    "offline services (--storage real: storage on the saved account's Nexus). Without --describe, --health or --invoke it opens a REPL (describe, health, " +
    "invoke <tool> [json-args], tools, trace on|off, restart, quit; piped input works line by " +
    "line); with --ui a local web inspector instead, until Ctrl-C. With --json, --invoke prints one line: the tool's data, {success:false, error, data?} " +
    "for a tool failure (data carries a refused host call's code), or the JSON-RPC error. Defaults: " +
    "storage in memory, embeddings synthetic, web fetch live (SSRF-guarded) and search off, no " +
    "connected accounts, sampling/agent/image/upload off. Exit codes: 0 " +
    "success, 1 the invoke failed (success:false or a JSON-RPC error), 2 usage, launch or fixture error " +
    "(also: not logged in for --storage real), 6 the saved account's server cannot be reached; " +
    "Ctrl-C shuts the plugin down and exits 130.",
  flags: [
    {
      name: "dir",
      type: "string",
      value: "<dir>",
      description: "Plugin folder (default: the current directory)",
    },
    {
      name: "spec",
      type: "string",
      value: "<spec>",
      description: "Launch spec: 'tool_id=…,type=python|node|go|binary,command=…,dir=…'",
    },
    {
      name: "plugin",
      type: "string",
      value: "<file>",
      description: "Pick one entry in a folder that holds several plugins",
    },
    { name: "describe", type: "boolean", description: "Print the manifest and exit" },
    {
      name: "health",
      type: "boolean",
      description: "Probe health and exit (with --json: the plugin's own health result)",
    },
    { name: "invoke", type: "string", value: "<tool>", description: "Invoke a tool and exit" },
    {
      name: "args",
      type: "string",
      value: "<json|@file|->",
      description: "Tool arguments: inline JSON, @file.json, or - for stdin",
    },
    {
      name: "json",
      type: "boolean",
      description:
        "One compact JSON line on stdout: data on success, {success:false, error, data?} for a tool failure, the JSON-RPC error otherwise",
    },
    {
      name: "credential",
      type: "string",
      multiple: true,
      value: "<NAME=VALUE>",
      description: "Send a credential in context.credentials",
    },
    {
      name: "trace",
      type: "boolean",
      description: "Print every frame in both directions on stderr",
    },
    {
      name: "ui",
      type: "boolean",
      description:
        "Serve the plugin inspector on 127.0.0.1 instead of the REPL: tool forms, invoke, live frames and stderr, restart (docs/inspector.md)",
    },
    {
      name: "ui-port",
      type: "string",
      value: "<port>",
      description: "Port of --ui (default 0: a free one)",
    },
    {
      name: "open",
      type: "boolean",
      description:
        "With --ui: open the inspector in $BROWSER (%s = the URL), else the platform's opener",
    },
    {
      name: "record",
      type: "string",
      value: "<file.jsonl>",
      description: "Write the session transcript (secrets redacted)",
    },
    ...SERVICE_FLAGS,
  ],
  // Every flag appears in at least one example (a test holds the list to that).
  examples: [
    "anna-app executa dev --dir examples/executas/ts-notes",
    "anna-app executa dev --dir ./my-plugin --describe",
    "anna-app executa dev --dir ./my-plugin --health --json",
    'anna-app executa dev --dir ./my-plugin --invoke echo --args \'{"text":"hi"}\' --json',
    "anna-app executa dev --dir ./my-plugin --invoke summarize --args @args.json --mock-sampling fixtures/sampling.jsonl",
    "generate-args | anna-app executa dev --dir ./my-plugin --invoke ingest --args -",
    "anna-app executa dev --spec 'tool_id=my-tool,type=node,command=\"node dist/server.js\"'",
    "anna-app executa dev --dir examples/executas/go-multi --plugin credential_plugin.go",
    "anna-app executa dev --dir ./my-plugin --credential API_KEY=sk_test_123 --trace --record session.jsonl",
    "anna-app executa dev --dir ./my-plugin --ui  # the inspector: prints http://127.0.0.1:PORT/?token=…",
    "anna-app executa dev --dir ./my-plugin --ui --ui-port 5190 --open --mock-sampling s.jsonl",
    "anna-app executa dev --dir ./my-plugin --mock-sampling s.jsonl --sampling-unsupported-format",
    "anna-app executa dev --dir ./my-plugin --no-sampling --no-agent --no-image --no-upload --no-embeddings",
    "anna-app executa dev --dir ./my-plugin --mock-agent agent.jsonl --mock-image image.jsonl --mock-upload upload.jsonl",
    "anna-app executa dev --dir ./my-plugin --mock-embeddings embeddings.jsonl",
    "anna-app executa dev --dir ./my-plugin --mock-web web.jsonl  # web/search from the file, web/fetch live",
    "anna-app executa dev --dir ./my-plugin --no-web  # web/* gets -32527",
    "anna-app executa dev --dir ./my-plugin --account google=work,email=me@work.example --account google=home,default,token=ya29.dev",
    "anna-app executa dev --dir ./my-plugin --storage mock --mock-storage storage.jsonl",
    "anna-app executa dev --dir ./my-plugin --storage off",
    "anna-app executa dev --dir ./my-plugin --storage memory --storage-scopes tool",
    "anna-app executa dev --dir ./my-plugin --grant storage,sampling  # everything else not granted",
    "anna-app executa dev --dir ./my-plugin --no-grant files  # storage/* works, files/* gets -32021",
    "anna-app executa dev --dir ./my-plugin --storage real  # storage on the saved account's Nexus (anna-app login first)",
    "anna-app executa dev --dir ./my-plugin --storage real --storage-account http://127.0.0.1:8080 --app-slug my-app --storage-scopes user,tool",
    "anna-app executa dev --dir ./my-plugin  # after anna-app login: sampling and agent go to your Nexus",
    "anna-app executa dev --dir ./my-plugin --app-slug my-app --upload-account http://127.0.0.1:8080  # sampling, agent, upload real",
    "anna-app executa dev --dir ./my-plugin --sampling-account https://a.example --agent-account https://b.example --image-account https://a.example  # per-family saved accounts",
    "anna-app executa dev --dir ./my-plugin --no-sampling --no-agent  # offline even with a saved account",
    'echo \'invoke echo {"text":"hi"}\' | anna-app executa dev --dir ./my-plugin',
  ],
};

async function run(args: ParsedArgs, io: CliIo): Promise<number> {
  const runner = await loadRunner();
  return runner.runExecutaDev(args, io);
}

export const command: CommandModule = { spec, run };
