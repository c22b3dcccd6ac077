// `anna-app executa dev --ui` as a developer runs it: the built CLI as a child process, whose
// banner names the inspector's URL. The process is stopped (SIGTERM) when the test ends.
import { spawn } from "node:child_process";
import { tmpdir } from "node:os";
import { onTestFinished } from "vitest";
import { CLI, cliEnv } from "../executa-dev/helpers.js";

export interface RunningInspector {
  /** The URL printed in the terminal, token included. */
  url: string;
  /** `http://127.0.0.1:<port>`. */
  base: string;
  port: number;
  token: string;
  /** What the CLI printed so far. */
  stdout(): string;
  stderr(): string;
  /** Sends SIGTERM and resolves the exit code. */
  stop(): Promise<number | null>;
}

const START_TIMEOUT_MS = 20_000;

export function startInspector(
  args: readonly string[],
  /** Over the test environment (a saved account's config folder, say); undefined removes. */
  env: Record<string, string | undefined> = {},
): Promise<RunningInspector> {
  const child = spawn(process.execPath, [CLI, "executa", "dev", "--ui", ...args], {
    cwd: tmpdir(),
    env: cliEnv(env),
    stdio: ["pipe", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout.on("data", (c: Buffer) => (out += c.toString("utf8")));
  child.stderr.on("data", (c: Buffer) => (err += c.toString("utf8")));
  const exited = new Promise<number | null>((resolve) =>
    child.on("close", (code) => resolve(code)),
  );
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    return exited;
  };
  onTestFinished(async () => {
    await stop();
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () =>
        reject(
          new Error(
            `no inspector URL within ${START_TIMEOUT_MS}ms; stdout: ${out}\nstderr: ${err}`,
          ),
        ),
      START_TIMEOUT_MS,
    );
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the CLI exited (${code}) before its inspector was up; stderr: ${err}`));
    });
    child.stdout.on("data", () => {
      // The tools line follows the URL once the plugin has started (or the error, on stderr).
      const match = /(http:\/\/127\.0\.0\.1:(\d+))\/\?token=([A-Za-z0-9_-]+)/.exec(out);
      if (match === null || !/tools |did not start/.test(out + err)) return;
      clearTimeout(timer);
      resolve({
        url: match[0],
        base: match[1] as string,
        port: Number(match[2]),
        token: match[3] as string,
        stdout: () => out,
        stderr: () => err,
        stop,
      });
    });
  });
}

/** Reads server-sent events from a fetch response until `until` accepts one (or time runs out). */
export async function readEvents(
  response: Response,
  until: (
    event: { event: string; data: unknown },
    all: { event: string; data: unknown }[],
  ) => boolean,
  timeoutMs = 10_000,
): Promise<{ event: string; data: unknown }[]> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const events: { event: string; data: unknown }[] = [];
  let buffer = "";
  const deadline = setTimeout(() => void reader.cancel(), timeoutMs);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done)
        throw new Error(
          `the stream ended before the awaited event; got: ${events.map((e) => e.event).join(", ")}`,
        );
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const name = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (name === undefined || data === undefined) continue;
        const event = { event: name, data: JSON.parse(data) as unknown };
        events.push(event);
        if (until(event, events)) return events;
      }
    }
  } finally {
    clearTimeout(deadline);
    await reader.cancel().catch(() => undefined);
  }
}
