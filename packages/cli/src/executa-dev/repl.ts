// The interactive loop of `anna-app executa dev`. On a TTY: a prompt with history, tab completion
// of commands, tool names and parameter names, and plugin output printed above the prompt. Off a
// TTY: one command per line, so scripts can pipe commands in and read the answers.
import { createInterface, type Interface } from "node:readline";
import type { CliIo } from "../cli/io.js";

export interface ReplCommand {
  name: string;
  usage: string;
  summary: string;
}

export const REPL_COMMANDS: readonly ReplCommand[] = [
  { name: "describe", usage: "describe", summary: "print the plugin's manifest" },
  { name: "health", usage: "health", summary: "probe the plugin's health" },
  {
    name: "invoke",
    usage: "invoke <tool> [json-args]",
    summary: 'call a tool, e.g. invoke echo {"text":"hi"}',
  },
  { name: "tools", usage: "tools", summary: "a table of the tools and their parameters" },
  { name: "trace", usage: "trace on|off", summary: "show every frame in both directions" },
  { name: "restart", usage: "restart", summary: "stop the plugin and start it again" },
  { name: "help", usage: "help", summary: "this list" },
  { name: "quit", usage: "quit", summary: "stop the plugin and leave (also: exit, Ctrl-D)" },
];

export interface ReplHandlers {
  /** Runs one command line; resolves when its output has been printed. */
  run(line: string): Promise<void>;
  /** Tool names, for completion. */
  toolNames(): readonly string[];
  /** Parameter names of a tool, for completion inside the JSON arguments. */
  parameterNames(tool: string): readonly string[];
}

export interface Repl {
  /** Print a line without garbling the prompt the user is typing into. */
  print(text: string): void;
  /** The same on stderr (plugin stderr, traces): the prompt line is cleared and redrawn. */
  printErr(text: string): void;
  /** Resolves when the user quits or input ends. */
  done: Promise<void>;
  close(): void;
  /** Whether the session ended with Ctrl-C on an empty prompt (the CLI then exits 130). */
  interrupted(): boolean;
}

const QUIT_WORDS = new Set(["quit", "exit", ".exit", "q"]);

export function startRepl(io: CliIo, handlers: ReplHandlers, prompt: string): Repl {
  const interactive = io.stdin.isTTY === true && io.stdout.isTTY === true;
  const rl: Interface = createInterface({
    input: io.stdin,
    output: interactive ? io.stdout : undefined,
    terminal: interactive,
    historySize: 500,
    completer: interactive ? (line: string) => complete(line, handlers) : undefined,
  });
  let closed = false;
  let interruptedByUser = false;
  let busy = false;
  const queue: string[] = [];
  let resolveDone!: () => void;
  const done = new Promise<void>((resolve) => (resolveDone = resolve));

  const printTo = (stream: CliIo["stdout"], text: string) => {
    const line = text.endsWith("\n") ? text : text + "\n";
    if (stream.destroyed || stream.writableEnded) return;
    if (!interactive || closed) {
      stream.write(line);
      return;
    }
    // Clear the prompt line, print, then redraw the prompt with whatever the user had typed.
    io.stdout.write("\r\u001b[2K");
    stream.write(line);
    if (!busy) rl.prompt(true);
  };
  const print = (text: string) => printTo(io.stdout, text);
  const printErr = (text: string) => printTo(io.stderr, text);

  const finish = () => {
    if (closed) return;
    closed = true;
    rl.close();
    resolveDone();
  };

  const pump = async () => {
    if (busy) return;
    busy = true;
    while (queue.length > 0 && !closed) {
      const line = (queue.shift() as string).trim();
      if (line === "" || line.startsWith("#")) continue;
      if (QUIT_WORDS.has(line)) {
        finish();
        break;
      }
      try {
        await handlers.run(line);
      } catch (error) {
        print(`error: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    busy = false;
    if (inputEnded) finish();
    else if (interactive && !closed) rl.prompt();
  };

  let inputEnded = false;
  rl.on("line", (line) => {
    queue.push(line);
    void pump();
  });
  rl.on("close", () => {
    inputEnded = true;
    // Piped input: finish the queued commands before leaving.
    if (!busy && queue.length === 0) finish();
    else void pump();
  });
  rl.on("SIGINT", () => {
    if (interactive && rl.line.length > 0) {
      rl.write(null, { ctrl: true, name: "u" });
      rl.prompt();
      return;
    }
    interruptedByUser = true;
    finish();
  });

  // A reader that went away (`| head`) ends the session instead of crashing it with EPIPE.
  const onOutputError = () => finish();
  io.stdout.on("error", onOutputError);
  void done.then(() => io.stdout.off("error", onOutputError));

  rl.setPrompt(prompt);
  if (interactive) rl.prompt();
  return { print, printErr, done, close: finish, interrupted: () => interruptedByUser };
}

/** Completion: command words first, then tool names, then parameter names inside the JSON. */
export function complete(line: string, handlers: ReplHandlers): [string[], string] {
  const words = line.split(/\s+/);
  if (words.length <= 1) {
    const word = words[0] ?? "";
    const hits = REPL_COMMANDS.map((c) => c.name).filter((n) => n.startsWith(word));
    return [hits.map((h) => h + " "), word];
  }
  if (words[0] === "trace" && words.length === 2) {
    const word = words[1] ?? "";
    return [["on", "off"].filter((w) => w.startsWith(word)), word];
  }
  if (words[0] !== "invoke") return [[], line];
  if (words.length === 2) {
    const word = words[1] ?? "";
    const hits = handlers.toolNames().filter((n) => n.startsWith(word));
    return [hits.map((h) => h + " "), word];
  }
  // Inside the JSON: complete the key being typed after `{` or `,`, e.g. `{"te` → `{"text":`.
  const tool = words[1] ?? "";
  const match = /[{,]\s*"?([A-Za-z0-9_]*)$/.exec(line);
  if (!match) {
    if (words.length === 3 && (words[2] ?? "") === "") return [['{"'], ""];
    return [[], line];
  }
  const partial = match[1] ?? "";
  const hits = handlers.parameterNames(tool).filter((p) => p.startsWith(partial));
  const prefixLength =
    match[0].length - (match[0].includes('"') ? partial.length + 1 : partial.length);
  const stem = line.slice(0, line.length - match[0].length + prefixLength);
  return [hits.map((h) => `${stem}"${h}": `), line];
}
