// The plugin sandbox with real bubblewrap and real node and python plugins: what a plugin sees
// (its own PID namespace, an unprivileged uid, a private home, no server secrets), what it
// cannot reach (another user's files, the server's data directory) and warm reuse per
// (user, tool).
import { cpSync, symlinkSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { ExecutaPool, SANDBOX_HOME } from "../../src/index.js";
import {
  BWRAP,
  FAST,
  FIXTURES,
  SKIP_REASON,
  bwrapOptions,
  fixtureExecuta,
  sandboxRoot,
  serverDataDir,
} from "./sandbox-helpers.js";

if (!BWRAP.usable) console.warn(`skipping sandbox isolation tests: ${SKIP_REASON}`);

function pool(root: string): ExecutaPool {
  const created = new ExecutaPool({ sandbox: bwrapOptions(root), ...FAST });
  onTestFinished(() => created.close());
  return created;
}

async function data(
  p: ExecutaPool,
  user: string,
  kind: "node" | "python",
  tool: string,
  args = {},
) {
  const outcome = await p.invoke(user, fixtureExecuta(kind, `${kind}-probe`), tool, args);
  if (!outcome.ok) throw new Error(`invoke ${tool} failed: ${JSON.stringify(outcome)}`);
  return outcome.data as Record<string, unknown>;
}

describe.skipIf(!BWRAP.usable)("the plugin sandbox (bubblewrap)", () => {
  it("runs a node plugin in its own PID namespace with a private home and none of the server's environment", async () => {
    process.env.ANNA_TEST_SERVER_SECRET = "must-not-leak";
    onTestFinished(() => {
      delete process.env.ANNA_TEST_SERVER_SECRET;
    });
    const p = pool(sandboxRoot());
    const me = await data(p, "alice", "node", "whoami");
    // bubblewrap is pid 1 of the namespace; the plugin is one of its first children.
    expect(me.pid).toBeLessThan(10);
    expect(me.home).toBe(SANDBOX_HOME);
    // TMPDIR is the private tmp's host path, so `__file_transport` pointers resolve on the host.
    expect(me.tmp).toMatch(/\/plugins\/alice-[0-9a-f]{12}\/node-probe-[0-9a-f]{12}\/tmp$/);
    if (process.getuid?.() === 0) expect(me.uid).toBe(65534);
    expect(me.envKeys).not.toContain("ANNA_TEST_SERVER_SECRET");
    const written = await data(p, "alice", "node", "write", {
      path: `${SANDBOX_HOME}/note.txt`,
      text: "alice's note",
    });
    expect(written).toEqual({ written: true });
    expect(await data(p, "alice", "node", "write", { path: "/usr/evil", text: "x" })).toMatchObject(
      {
        written: false,
      },
    );
  });

  it("keeps one warm process per (user, tool) and separate processes per user", async () => {
    const p = pool(sandboxRoot());
    const first = await data(p, "alice", "node", "whoami");
    const pidA = p.pidOf("alice", "node-probe");
    const second = await data(p, "alice", "node", "whoami");
    expect(p.pidOf("alice", "node-probe")).toBe(pidA);
    expect(second.pid).toBe(first.pid);
    await data(p, "bob", "node", "whoami");
    const pidB = p.pidOf("bob", "node-probe");
    expect(pidB).toBeDefined();
    expect(pidB).not.toBe(pidA);
    expect(p.size).toBe(2);
  });

  it("does not let a plugin read another user's files nor the server's data directory", async () => {
    const root = sandboxRoot();
    const server = serverDataDir();
    const p = pool(root);
    await data(p, "alice", "node", "write", {
      path: `${SANDBOX_HOME}/note.txt`,
      text: "alice only",
    });
    // Bob's plugin: the same path is his own, empty home; alice's folder on the host is not there.
    expect(await data(p, "bob", "node", "read", { path: `${SANDBOX_HOME}/note.txt` })).toEqual({
      readable: false,
      code: "ENOENT",
    });
    const aliceHostHome = `${root}/plugins`;
    expect(await data(p, "bob", "node", "read", { path: aliceHostHome })).toMatchObject({
      readable: false,
    });
    expect(await data(p, "bob", "node", "read", { path: server.secret })).toEqual({
      readable: false,
      code: "ENOENT",
    });
    expect(await data(p, "bob", "node", "read", { path: "/etc/shadow" })).toMatchObject({
      readable: false,
    });
    // Alice still reads her own.
    expect(await data(p, "alice", "node", "read", { path: `${SANDBOX_HOME}/note.txt` })).toEqual({
      readable: true,
      content: "alice only",
    });
  });

  it("sandboxes a python plugin the same way, whatever toolchain folders the host's PATH puts first", async () => {
    const server = serverDataDir();
    const p = pool(sandboxRoot());
    const python = fixtureExecuta("python", "python-probe");
    // As detection on a developer's machine gives it: a pyenv-like folder the sandbox cannot see first.
    writeFileSync(path.join(server.dir, "python3"), "#!/bin/sh\nexit 1\n", { mode: 0o755 });
    const spec = { ...python.spec, env: { PATH: `${server.dir}:/usr/bin:/bin` } };
    const outcome = await p.invoke("alice", { ...python, spec }, "whoami", {});
    expect(outcome.ok).toBe(true);
    const me = await data(p, "alice", "python", "whoami");
    expect(me.pid).toBeLessThan(10);
    expect(me.home).toBe(SANDBOX_HOME);
    expect(await data(p, "alice", "python", "read", { path: server.secret })).toEqual({
      readable: false,
      code: "FileNotFoundError",
    });
  });

  it("starts an installed binary whose folder is a `current` symlink to the version folder", async () => {
    const installs = sandboxRoot();
    const version = path.join(installs, "v0.1.0");
    cpSync(path.join(FIXTURES, "node-plugin"), version, { recursive: true });
    // What `installedLaunchSpec` gives: the entrypoint itself as command[0], under `current`.
    writeFileSync(
      path.join(version, "run.sh"),
      '#!/bin/sh\nexec node "$(dirname "$0")/main.mjs"\n',
      {
        mode: 0o755,
      },
    );
    const current = path.join(installs, "current");
    symlinkSync(version, current);
    const executa = fixtureExecuta("node", "installed");
    const spec = {
      ...executa.spec,
      type: "binary" as const,
      dir: current,
      cwd: current,
      command: [path.join(current, "run.sh")],
    };
    const p = pool(sandboxRoot());
    const outcome = await p.invoke("alice", { ...executa, spec }, "whoami", {});
    expect(outcome).toMatchObject({ ok: true, data: { home: SANDBOX_HOME } });
  });

  it("passes credentials per invoke in context.credentials (H10), not through the environment", async () => {
    const p = new ExecutaPool({
      sandbox: bwrapOptions(sandboxRoot()),
      credentials: async (userId, toolId) => ({ API_KEY: `${userId}:${toolId}` }),
      ...FAST,
    });
    onTestFinished(() => p.close());
    const context = await data(p, "alice", "node", "context");
    expect(context.credentials).toEqual({ API_KEY: "alice:node-probe" });
    const me = await data(p, "alice", "node", "whoami");
    expect(me.envKeys).not.toContain("API_KEY");
  });
});
