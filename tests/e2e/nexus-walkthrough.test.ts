// docs/nexus.md's "From nothing to a plugin with real storage", step by step, with the commands
// the guide prints (each one is checked to be in the guide, so the two cannot drift apart): a real
// `anna-nexus` process on 127.0.0.1, `admin create-user --developer`, `anna-app login` by the
// device flow approved over HTTP with a session cookie as the /device page does, `executa dev
// --storage real` writing a note, a server restart, and the note read back. HOME is a temp
// folder, so the credentials file is the test's own. No secret appears in any output.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const GUIDE = readFileSync(path.join(ROOT, "docs/nexus.md"), "utf8");
const SECTION = GUIDE.slice(
  GUIDE.indexOf("## From nothing to a plugin with real storage"),
  GUIDE.indexOf("\n## ", GUIDE.indexOf("## From nothing") + 5),
);
const NEXUS = path.join(ROOT, "packages/nexus/bin/anna-nexus.js");
const CLI = path.join(ROOT, "packages/cli/bin/anna-app.js");
const WAIT_MS = 60_000;
const PASSWORD = "a long password";
const EMAIL = "dev@example.com";

/** The guide's commands, as the shell sees them once `\` line continuations are joined. */
const GUIDE_COMMANDS = SECTION.replace(/\\\n\s*/g, "");

/** The argv of one of the guide's commands (after `node <bin>` / `anna-app`), checked to be there. */
function fromGuide(command: string): string[] {
  expect(GUIDE_COMMANDS, `docs/nexus.md no longer shows: ${command}`).toContain(command);
  const words = command.match(/'[^']*'|\S+/g) ?? [];
  const args = words.map((w) => (w.startsWith("'") ? w.slice(1, -1) : w));
  const at = args.findIndex((w) => w === "anna-app" || w.endsWith(".js"));
  return args.slice(at + 1);
}

const scratch = mkdtempSync(path.join(tmpdir(), "nexus-walkthrough-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Proc {
  out(): string;
  waitFor(pattern: RegExp): Promise<RegExpMatchArray>;
  exited: Promise<number | null>;
  pid: number;
  stop(): void;
}

function run(
  bin: string,
  args: readonly string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv; stdin?: string },
): Proc {
  const child = spawn(process.execPath, [bin, ...args], {
    cwd: opts.cwd,
    env: opts.env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  child.stdin.end(opts.stdin ?? "");
  let text = "";
  const waiters = new Set<() => void>();
  const onData = (s: string) => {
    text += s;
    waiters.forEach((w) => w());
  };
  child.stdout.setEncoding("utf8").on("data", onData);
  child.stderr.setEncoding("utf8").on("data", onData);
  const exited = new Promise<number | null>((resolve) =>
    child.on("close", (code) => {
      waiters.forEach((w) => w());
      resolve(code);
    }),
  );
  return {
    out: () => text,
    pid: child.pid ?? -1,
    exited,
    stop: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    },
    waitFor: (pattern) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`timed out waiting for ${pattern}; output:\n${text}`));
        }, WAIT_MS);
        const check = () => {
          const m = text.match(pattern);
          if (m || child.exitCode !== null) {
            clearTimeout(timer);
            waiters.delete(check);
            if (m) resolve(m);
            else reject(new Error(`exited ${child.exitCode} before ${pattern}; output:\n${text}`));
          }
        };
        waiters.add(check);
        check();
      }),
  };
}

async function finished(p: Proc): Promise<{ code: number | null; out: string }> {
  const code = await p.exited;
  return { code, out: p.out() };
}

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describe("docs/nexus.md: from nothing to a plugin with real storage", () => {
  it("starts, creates a developer, logs in, stores a note, restarts and reads it back", async () => {
    const port = await freePort();
    const host = `http://127.0.0.1:${port}`;
    const home = path.join(scratch, "home");
    const work = path.join(scratch, "work");
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, NO_COLOR: "1", BROWSER: "" };
    for (const name of ["XDG_CONFIG_HOME", "ANNA_APP_HOST", "ANNA_APP_PAT", "DATABASE_URL"]) {
      delete env[name];
    }
    env.ANNA_DATA_DIR = "";
    mkdirSync(work, { recursive: true });
    const onPort = (args: string[]) => args.map((a) => a.replace("8080", String(port)));
    const outputs: string[] = [];
    const servers: Proc[] = [];
    const startServer = async () => {
      const server = run(
        NEXUS,
        onPort(
          fromGuide("node packages/nexus/bin/anna-nexus.js start --port 8080 --data ./.anna-data"),
        ),
        { cwd: work, env },
      );
      servers.push(server);
      await server.waitFor(/"msg":"listening"/);
      return server;
    };
    try {
      // 1. Start the server.
      let server = await startServer();

      // 2. Create a developer account.
      const create = await finished(
        run(
          NEXUS,
          fromGuide(
            "node packages/nexus/bin/anna-nexus.js admin create-user --data ./.anna-data --email dev@example.com --password-stdin --developer",
          ),
          { cwd: work, env, stdin: PASSWORD },
        ),
      );
      outputs.push(create.out);
      expect(create.code, create.out).toBe(0);
      expect(GUIDE_COMMANDS).toContain(`printf '%s' '${PASSWORD}'`);

      // 3. Log in; approve as the signed-in developer would on /device.
      const login = run(
        CLI,
        onPort(fromGuide("anna-app login --host http://127.0.0.1:8080 --no-browser")),
        { cwd: work, env },
      );
      const [, code] = await login.waitFor(/user_code=([A-Z0-9]{4}-[A-Z0-9]{4})/);
      const signin = await fetch(`${host}/api/v1/auth/signin`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: host },
        body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
      });
      expect(signin.status).toBe(200);
      const cookie = /anna_session=[^;]+/.exec(signin.headers.get("set-cookie") ?? "")![0];
      const approve = await fetch(`${host}/api/v1/anna-apps/dev/login/approve`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: host, cookie },
        body: JSON.stringify({ user_code: code }),
      });
      expect(approve.status, await approve.clone().text()).toBe(200);
      const loggedIn = await finished(login);
      outputs.push(loggedIn.out);
      expect(loggedIn.code, loggedIn.out).toBe(0);
      expect(loggedIn.out).toContain(`✓ logged in to ${host} as ${EMAIL}`);
      const credentials = path.join(home, ".config/anna/credentials.json");
      expect(statSync(credentials).mode & 0o777).toBe(0o600);
      const pat = (
        JSON.parse(readFileSync(credentials, "utf8")) as {
          accounts: Record<string, { pat: string }>;
        }
      ).accounts[host]!.pat;

      // 4. A plugin with real storage.
      const add = await finished(
        run(
          CLI,
          fromGuide(
            `anna-app executa dev --dir examples/executas/ts-notes --storage real --invoke add_note --args '{"text":"survives restarts","tags":["demo"]}'`,
          ),
          { cwd: ROOT, env },
        ),
      );
      outputs.push(add.out);
      expect(add.code, add.out).toBe(0);
      expect(add.out).toMatch(/✓ add_note/);
      expect(add.out).toMatch(/"count": 1/);

      // 5. Restart the server, read the note back.
      server.stop();
      expect(await server.exited).toBe(0);
      server = await startServer();
      const list = await finished(
        run(
          CLI,
          fromGuide(
            "anna-app executa dev --dir examples/executas/ts-notes --storage real --invoke list_notes",
          ),
          { cwd: ROOT, env },
        ),
      );
      outputs.push(list.out);
      expect(list.code, list.out).toBe(0);
      expect(list.out).toContain('"text": "survives restarts"');
      expect(list.out).toMatch(/"total": 1/);

      // The PAT never shows: not in the CLI's output, not in the server's log.
      for (const s of servers) outputs.push(s.out());
      for (const text of outputs) expect(text).not.toContain(pat);
      expect(outputs.join("\n")).not.toMatch(/eyJ[\w-]{8,}\.eyJ/);
    } finally {
      for (const s of servers) s.stop();
      await Promise.all(servers.map((s) => s.exited));
    }
  }, 240_000);
});
