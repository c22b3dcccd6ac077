// `anna-nexus start --blob-store` / BLOB_STORE as a real process: the folder it names serves the
// files' URLs and /readyz reports it; a URL it cannot use stops the start with a clear message.
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startNexus } from "../helpers/process.js";

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), "anna-nexus-blobflag-"));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("anna-nexus start --blob-store", () => {
  it("keeps objects in the named folder and reports it ready", async () => {
    const data = tempDir();
    const blobs = tempDir();
    const p = startNexus(["start", "--port", "0", "--data", data], { BLOB_STORE: `file:${blobs}` });
    const url = (await p.waitFor(/"msg":"listening","url":"(http:\/\/[^"]+)"/))[1] as string;
    expect(p.stderr()).toContain(`"blob_store":"filesystem (${blobs})"`);
    const ready = await fetch(`${url}/readyz`);
    // The sandbox's state depends on the machine (bwrap or not); it never decides readiness.
    expect(await ready.json()).toMatchObject({
      status: "ready",
      checks: { database: "ok", blob_store: "ok", migrations: "ok" },
    });
    const signup = await fetch(`${url}/api/v1/auth/signup`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "f@example.com", password: "correct horse battery" }),
    });
    const cookie = /anna_session=[^;]+/.exec(signup.headers.get("set-cookie") ?? "")?.[0] ?? "";
    const begin = await fetch(`${url}/api/v1/storage/files/init?scope=user`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie },
      body: JSON.stringify({ path: "a.txt", content_type: "text/plain", size_bytes: 2 }),
    });
    const { put_url } = (await begin.json()) as { put_url: string };
    expect(put_url.startsWith(`${url}/api/v1/storage/blob/`)).toBe(true);
    const put = await fetch(put_url, {
      method: "PUT",
      body: "hi",
      headers: { "content-type": "text/plain" },
    });
    expect(put.status).toBe(200);
    expect(readdirSync(join(blobs, "objects")).length).toBe(2);
    p.signal("SIGTERM");
    expect(await p.exited()).toBe(0);
  });

  it("refuses a blob store URL it cannot use, saying what would work", async () => {
    const p = startNexus([
      "start",
      "--port",
      "0",
      "--data",
      tempDir(),
      "--blob-store",
      "ftp://files",
    ]);
    expect(await p.exited()).toBe(3);
    expect(p.stderr()).toMatch(
      /unsupported blob store 'ftp:\/\/files' \(use file:<dir> or s3:\/\//,
    );
  });
});
