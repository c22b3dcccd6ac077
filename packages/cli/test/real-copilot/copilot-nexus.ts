// `anna-nexus start` as a real child process for the dev tools' real modes: SQLite and a
// filesystem blob store in a temp data folder, the offline model (no provider configured), on
// 127.0.0.1 port 0. A developer signs up and gets a PAT by the device flow over HTTP, and a
// config folder holds it as `anna-app login` would; the database can be read beside the server
// (SQLite in WAL mode) to see the usage rows its gateway wrote.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { openDatabase } from "@anna-ai/nexus";
import { spawn } from "node:child_process";
import { savedAccountEnv } from "../real-storage/storage-nexus.js";

const NEXUS_BIN = fileURLToPath(new URL("../../../nexus/bin/anna-nexus.js", import.meta.url));
/** Generous: the test machine may be running several suites at once. */
const START_TIMEOUT_MS = 45_000;

export interface CopilotNexus {
  url: string;
  dataDir: string;
  pat: string;
  /** XDG_CONFIG_HOME (and no ANNA_APP_*) selecting the saved account of `pat`. */
  env: Record<string, string | undefined>;
  /** Stops the server and removes its folders. */
  close(): Promise<void>;
  /** The `llm_usage` rows the server's gateway wrote. */
  usage(): Promise<{ app_id: string; tool_id: string; purpose: string; total_tokens: number }[]>;
}

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

/** Stop it with `close()` (in `afterAll`): signing up hashes a password, so servers are shared. */
export async function startCopilotNexus(env: NodeJS.ProcessEnv = {}): Promise<CopilotNexus> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "cli-copilot-nexus-"));
  const configDir = mkdtempSync(path.join(tmpdir(), "cli-copilot-config-"));
  // Not tests/support's watcher: that one is tied to a single test, this server to a suite.
  const child = spawn(process.execPath, [NEXUS_BIN, "start", "--port", "0", "--data", dataDir], {
    env: { ...process.env, DATABASE_URL: "", ANNA_DATA_DIR: "", BLOB_STORE: "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), START_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(configDir, { recursive: true, force: true });
  };
  let url: string;
  let pat: string;
  try {
    url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(new Error(`anna-nexus did not listen within ${START_TIMEOUT_MS} ms:\n${output}`)),
        START_TIMEOUT_MS,
      );
      const onData = (chunk: Buffer) => {
        // Bounded: only the start-up lines matter, and the server keeps logging.
        if (output.length < 64 * 1024) output += chunk.toString("utf8");
        const m = /"msg":"listening","url":"(http:\/\/[^"]+)"/.exec(output);
        if (m) {
          clearTimeout(timer);
          resolve(m[1] as string);
        }
      };
      child.stdout.on("data", onData);
      child.stderr.on("data", onData);
      void exited.then(() => reject(new Error(`anna-nexus exited before listening:\n${output}`)));
    });
    pat = await devicePat(url);
  } catch (error) {
    await close();
    throw error;
  }
  return {
    url,
    dataDir,
    pat,
    close,
    env: await savedAccountEnv(configDir, url, pat),
    async usage() {
      const handle = openDatabase({ dataDir });
      try {
        return await handle.db
          .selectFrom("llm_usage")
          .select(["app_id", "tool_id", "purpose", "total_tokens"])
          .execute();
      } finally {
        await handle.close();
      }
    },
  };
}

/** Sign-up and the device flow, as `anna-app login` and the /device page run it. */
async function devicePat(url: string): Promise<string> {
  const signup = await post(`${url}/api/v1/auth/signup`, {
    email: "dev@example.com",
    password: "correct horse battery",
  });
  if (signup.status !== 201) throw new Error(`signup ${signup.status}: ${await signup.text()}`);
  const cookie = /anna_session=[^;]+/.exec(signup.headers.get("set-cookie") ?? "")?.[0];
  if (cookie === undefined) throw new Error("signup set no session cookie");
  const start = (await (await post(`${url}/api/v1/anna-apps/dev/login/start`, {})).json()) as {
    device_code: string;
    user_code: string;
  };
  const approve = await post(
    `${url}/api/v1/anna-apps/dev/login/approve`,
    { user_code: start.user_code },
    { cookie, origin: url },
  );
  if (approve.status !== 200) throw new Error(`approve ${approve.status}: ${await approve.text()}`);
  const poll = await post(`${url}/api/v1/anna-apps/dev/login/poll`, {
    device_code: start.device_code,
  });
  if (poll.status !== 200) throw new Error(`poll ${poll.status}: ${await poll.text()}`);
  return ((await poll.json()) as { pat: string }).pat;
}
