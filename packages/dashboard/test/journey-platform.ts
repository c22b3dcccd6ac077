// The whole platform for the journey test, in this process: `anna-nexus start` itself (runStart,
// as `npm start` runs it: the dashboard, chat on the server's turn assembly, the executa runtime
// with its bubblewrap sandbox, the app runtime, release review on) on a temp SQLite folder, its
// model a fake OpenAI-compatible provider; the first admin as `npm start` creates it; and the
// developer's `anna-app` (the built CLI) run on a staged copy of an example app, as a developer types it.
import { chmod, cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  ensureFirstAdmin,
  hashPassword,
  type ListeningServer,
  mintPat,
  runStart,
} from "@anna-ai/nexus";
import { runCli } from "../../cli/test/executa-init/helpers.js";

export const EXAMPLES = path.resolve(import.meta.dirname, "../../../examples/apps");
/** What a staged copy leaves out, as `npm start`'s publisher does: tests, recordings, modules. */
const NOT_PUBLISHED = new Set(["node_modules", "test", "tests", "fixtures", ".anna"]);
/** The server's log and a command's output are a few hundred KiB at most; keep the last 1 MiB. */
const MAX_CAPTURE_BYTES = 1024 * 1024;
const LISTEN_TIMEOUT_MS = 30_000;
const CLI_TIMEOUT_MS = 60_000;

export interface Platform {
  url: string;
  server: ListeningServer;
  admin: { email: string; password: string };
  /** What the server wrote on stderr (JSON log lines), for a failing assertion's message. */
  log(): string;
  close(): Promise<void>;
}

/** A bounded text sink: the newest MAX_CAPTURE_BYTES of what was written. */
function sink(): { write(s: string): void; text(): string } {
  let text = "";
  return {
    write(s) {
      text = (text + s).slice(-MAX_CAPTURE_BYTES);
    },
    text: () => text,
  };
}

export async function startPlatform(llm: { baseUrl: string; model: string }): Promise<Platform> {
  const data = await mkdtemp(path.join(tmpdir(), "anna-journey-"));
  // Under root the sandbox runs plugins as nobody, who must reach the installed files.
  await chmod(data, 0o755);
  const err = sink();
  let stop!: (sig: string) => void;
  const stopSignal = new Promise<string>((resolve) => (stop = resolve));
  let listening!: (s: ListeningServer) => void;
  const up = new Promise<ListeningServer>((resolve) => (listening = resolve));
  const env = {
    ...process.env,
    ANNA_LLM_PROVIDER: "openai-compatible",
    ANNA_LLM_BASE_URL: llm.baseUrl,
    ANNA_LLM_MODEL: llm.model,
    ANNA_LLM_API_KEY: "sk-journey-test",
  };
  const exited = runStart(
    ["--port", "0", "--data", data, "--release-review"],
    { stdout: () => {}, stderr: err.write, stdin: process.stdin, env, cwd: data },
    { stopSignal, onListening: (s) => Promise.resolve(listening(s)) },
  );
  const server = await Promise.race([
    up,
    exited.then((code) => {
      throw new Error(`anna-nexus start exited ${code} before it listened: ${err.text()}`);
    }),
    new Promise<never>((_, reject) =>
      setTimeout(
        () => reject(new Error(`the server did not listen within ${LISTEN_TIMEOUT_MS} ms`)),
        LISTEN_TIMEOUT_MS,
      ).unref(),
    ),
  ]);
  const admin = await ensureFirstAdmin(server.stores, Date.now());
  if (admin === undefined) throw new Error(`a fresh data folder ${data} already had people`);
  return {
    url: server.origin,
    server,
    admin,
    log: err.text,
    async close() {
      stop("SIGTERM");
      await exited;
      await rm(data, { recursive: true, force: true });
    },
  };
}

/** A verified developer with a handle and a password (to sign in) and a PAT (for `anna-app`). */
export async function createDeveloper(
  server: ListeningServer,
  who: { email: string; password: string; handle: string },
): Promise<string> {
  const now = Date.now();
  const user = await server.stores.users.create(
    {
      email: who.email,
      passwordHash: await hashPassword(who.password),
      isVerified: true,
      developer: true,
      handle: who.handle,
    },
    now,
  );
  const { pat } = await mintPat(server.stores, {
    userId: user.id,
    scopes: ["aps:dev", "executas:publish"],
    label: "journey test: anna-app",
    now,
    ttlMs: 60 * 60_000,
  });
  return pat;
}

/** A copy of examples/apps/<name> as its author's checkout, at `version` (app.json). */
export async function stageExample(name: string, version: string): Promise<string> {
  const base = await mkdtemp(path.join(tmpdir(), `anna-journey-${name}-`));
  const src = path.join(EXAMPLES, name);
  const dir = path.join(base, name);
  await cp(src, dir, {
    recursive: true,
    filter: (p) => p === src || !NOT_PUBLISHED.has(path.basename(p)),
  });
  const appJson = path.join(dir, "app.json");
  const meta = JSON.parse(await readFile(appJson, "utf8")) as Record<string, unknown>;
  await writeFile(appJson, JSON.stringify({ ...meta, version }, null, 2));
  return dir;
}

/**
 * `anna-app <argv>` (the built CLI, a child process) in `cwd` with ANNA_APP_HOST and ANNA_APP_PAT,
 * as in a developer's CI; its stdout, or a throw naming the command and what it printed.
 */
export async function runAnnaApp(
  argv: string[],
  o: { cwd: string; host: string; pat: string },
): Promise<string> {
  const home = await mkdtemp(path.join(tmpdir(), "anna-journey-home-"));
  try {
    const r = await runCli(argv, {
      cwd: o.cwd,
      env: {
        ...process.env,
        HOME: home,
        ANNA_APP_HOST: o.host,
        ANNA_APP_PAT: o.pat,
        NO_COLOR: "1",
      },
      timeoutMs: CLI_TIMEOUT_MS,
    });
    if (r.code !== 0) {
      throw new Error(`\`anna-app ${argv.join(" ")}\` exited ${r.code}: ${r.stderr || r.stdout}`);
    }
    return r.stdout;
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}
