// `anna-nexus admin load-app`: a real app folder into a real SQLite catalogue, installed for a
// user, then resolved the way the runtime resolves a window's app.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { expect, it } from "vitest";
import { TEST_SCRYPT } from "../../src/auth/password.js";
import { runAdmin } from "../../src/cli/admin.js";
import { EXIT, ExitError } from "../../src/cli/exit.js";
import { openDatabase } from "../../src/db/connect.js";
import { sqlAppCatalog } from "../../src/runtime/sql-app-catalog.js";
import { FOCUS_FLOW } from "../helpers/runtime.js";

function admin(args: string[], stdin = "") {
  const out: string[] = [];
  const io = {
    stdout: (s: string) => void out.push(s),
    stderr: () => {},
    stdin: Readable.from([stdin]),
    env: {},
    cwd: tmpdir(),
  };
  return runAdmin(args, io, { passwordParams: TEST_SCRYPT }).then(
    (code) => ({ code, out: out.join("") }),
    (err: unknown) => {
      if (err instanceof ExitError) return { code: err.exitCode, out: err.message };
      throw err;
    },
  );
}

it("loads focus-flow, installs it for a user, and the runtime resolves it", async () => {
  const data = ["--data", mkdtempSync(join(tmpdir(), "anna-nexus-load-app-"))];
  const created = await admin(
    ["create-user", "--email", "dev@example.com", "--password-stdin", "--json", ...data],
    "correct horse battery",
  );
  expect(created.code).toBe(EXIT.ok);
  const userId = String((JSON.parse(created.out) as { id: number }).id);

  const first = await admin([
    "load-app",
    FOCUS_FLOW,
    "--install-for",
    "DEV@example.com",
    "--json",
    ...data,
  ]);
  expect(first.code, first.out).toBe(EXIT.ok);
  const loaded = JSON.parse(first.out) as { app_id: string; version: string; replaced: boolean };
  expect(loaded).toMatchObject({
    slug: "focus-flow",
    version: "0.1.0",
    replaced: false,
    installed_for: "dev@example.com",
  });
  const again = await admin(["load-app", FOCUS_FLOW, "--json", ...data]);
  expect(JSON.parse(again.out)).toMatchObject({ app_id: loaded.app_id, replaced: true });

  const h = openDatabase({ dataDir: data[1]! });
  try {
    const catalog = sqlAppCatalog(h.db);
    const app = await catalog.apps.resolve({ appId: loaded.app_id, userId });
    expect(app).toMatchObject({ appId: loaded.app_id, versionId: "0.1.0", name: "Focus Flow" });
    expect(app?.manifest.ui?.host_api?.storage).toEqual(["get", "set", "delete"]);
    // Nobody else has it installed; no such version is served either.
    expect(await catalog.apps.resolve({ appId: loaded.app_id, userId: "999" })).toBeUndefined();
    expect(
      await catalog.apps.resolve({ appId: loaded.app_id, userId, versionId: "9.9.9" }),
    ).toBeUndefined();
    expect((await catalog.installedApps.list(userId)).map((a) => a.slug)).toEqual(["focus-flow"]);
  } finally {
    await h.close();
  }
});

it("refuses a folder that is not a valid app, and an unknown user, saying what to fix", async () => {
  const data = ["--data", mkdtempSync(join(tmpdir(), "anna-nexus-load-app-"))];
  const empty = mkdtempSync(join(tmpdir(), "anna-nexus-not-an-app-"));
  const missing = await admin(["load-app", empty, ...data]);
  expect(missing).toMatchObject({
    code: EXIT.usage,
    out: expect.stringContaining("manifest.json"),
  });
  writeFileSync(join(empty, "manifest.json"), JSON.stringify({ schema: 2, nonsense: true }));
  writeFileSync(join(empty, "app.json"), JSON.stringify({ name: "X", slug: "x-app" }));
  const invalid = await admin(["load-app", empty, "--version", "1.0.0", ...data]);
  expect(invalid.code).toBe(EXIT.usage);
  expect(invalid.out).toMatch(/manifest\.json has \d+ error\(s\)[\s\S]*nonsense/);
  const nobody = await admin([
    "load-app",
    FOCUS_FLOW,
    "--install-for",
    "nobody@example.com",
    ...data,
  ]);
  expect(nobody).toMatchObject({
    code: EXIT.notFound,
    out: "no user with email nobody@example.com",
  });
  expect((await admin(["load-app", ...data])).code).toBe(EXIT.usage);
});
