// `apps publish` end to end (issue 12 "Speed"): the built `anna-app` process publishing an app
// whose UI bundle is 200 files, 2 MB in all, to a Nexus on 127.0.0.1 (the CLI tests' embedded
// server: SQLite, filesystem blobs), next to the baseline of the same bytes as 200 bare blob
// PUTs over one keep-alive connection to a node:http server that writes each into the same kind
// of blob store, and a bare `anna-app --version` (the CLI's own start-up, for scale).
//
// Every sample rewrites a counter into each file (same sizes) so nothing is deduplicated: each
// publish uploads all 200 files as a new version (`--bump patch`). Samples are single runs,
// interleaved; the median is reported (a publish takes seconds, so no fixed-time rounds).
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, request, Agent } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { openBlobStore } from "../../packages/nexus/src/blobs/open-blob-store.js";
import { startTestNexus } from "../../packages/cli/test/account/nexus-server.js";
import type { MeasureOptions, Row } from "./measure.js";

const REPO = fileURLToPath(new URL("../..", import.meta.url));
const CLI = join(REPO, "packages/cli/bin/anna-app.js");
export const PUBLISH_FILES = 200;
export const PUBLISH_BYTES = 2 * 1024 * 1024;
const FILE_BYTES = Math.floor(PUBLISH_BYTES / PUBLISH_FILES);

function run(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd,
      env,
      stdio: ["ignore", "ignore", "pipe"],
    });
    let err = "";
    child.stderr.on("data", (d: Buffer) => {
      if (err.length < 4096) err += d.toString();
    });
    child.on("error", reject);
    child.on("exit", (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`anna-app ${args.join(" ")} exited ${code}: ${err}`)),
    );
  });
}

/** The 200 bundle files of sample `n`: same names and sizes, different bytes. */
function bundleFiles(n: number): { name: string; bytes: Buffer }[] {
  return Array.from({ length: PUBLISH_FILES }, (_, i) => {
    const name = i === 0 ? "index.html" : `assets/chunk-${String(i).padStart(3, "0")}.js`;
    const head =
      i === 0 ? `<!doctype html><title>bench ${n}</title><!--` : `// sample ${n} file ${i}\n//`;
    const bytes = Buffer.alloc(FILE_BYTES, "x");
    bytes.write(head);
    if (i === 0) bytes.write("-->", FILE_BYTES - 3);
    return { name, bytes };
  });
}

function writeApp(dir: string, n: number): void {
  mkdirSync(join(dir, "bundle/assets"), { recursive: true });
  writeFileSync(
    join(dir, "manifest.json"),
    JSON.stringify({
      schema: 2,
      permissions: [],
      ui: {
        bundle: { format: "static-spa", entry: "index.html" },
        views: [{ name: "main", title: "Main", default: true }],
      },
    }),
  );
  for (const f of bundleFiles(n)) writeFileSync(join(dir, "bundle", f.name), f.bytes);
}

/** A bare blob upload server: PUT /<key> streams the body into the blob store. */
async function bareBlobServer(dataDir: string) {
  const blobs = await openBlobStore({ url: undefined, dataDir, origin: () => "", clock: Date.now });
  const server = createServer((req, res) => {
    void blobs.put(req.url!.slice(1), "application/octet-stream", req, 64 * 1024 * 1024).then(
      (out) => {
        res.statusCode = out.ok ? 201 : 413;
        res.end();
      },
      (e: unknown) => {
        res.statusCode = 500;
        res.end(String(e));
      },
    );
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const put = (key: string, body: Buffer) =>
    new Promise<void>((resolve, reject) => {
      const req = request(
        {
          host: "127.0.0.1",
          port,
          path: `/${key}`,
          method: "PUT",
          agent,
          headers: { "content-length": body.length },
        },
        (res) => {
          res.resume();
          res.on("end", () =>
            res.statusCode === 201 ? resolve() : reject(new Error(`PUT ${res.statusCode}`)),
          );
        },
      );
      req.on("error", reject);
      req.end(body);
    });
  return {
    async upload(n: number) {
      for (const f of bundleFiles(n)) await put(`bare/${n}/${f.name}`, f.bytes);
    },
    async close() {
      agent.destroy();
      await new Promise<void>((r) => server.close(() => r()));
      await blobs.close();
    },
  };
}

export async function publishPiece(o: MeasureOptions): Promise<Row[]> {
  const root = mkdtempSync(join(tmpdir(), "bench-publish-"));
  const nexus = await startTestNexus();
  const bare = await bareBlobServer(join(root, "bare"));
  try {
    const email = "bench-publisher@example.com";
    const cookie = await nexus.signup(email);
    await nexus.makeDeveloper(email);
    const { pat } = await nexus.devicePat(cookie);
    const handle = await fetch(`${nexus.url}/api/v1/developer/profile/handle`, {
      method: "PUT",
      headers: { authorization: `Bearer ${pat}`, "content-type": "application/json" },
      body: JSON.stringify({ handle: "bench" }),
    });
    if (handle.status !== 200)
      throw new Error(`setting the handle: ${handle.status} ${await handle.text()}`);
    const dir = join(root, "app");
    const home = join(root, "home");
    mkdirSync(home);
    const env = {
      PATH: process.env.PATH,
      HOME: home,
      LANG: "C.UTF-8",
      ANNA_APP_HOST: nexus.url,
      ANNA_APP_PAT: pat,
    };
    writeApp(dir, 0);
    writeFileSync(
      join(dir, "app.json"),
      JSON.stringify({ slug: "bench-app", name: "Bench", version: "0.0.1", category: "utilities" }),
    );
    await run(["apps", "publish", "--json"], dir, env); // warm-up: creates the app

    const samples = Math.max(3, o.rounds);
    const times: Record<string, number[]> = { bare: [], publish: [], version: [] };
    const timeIt = async (key: string, op: () => Promise<void>) => {
      const t = performance.now();
      await op();
      times[key]!.push((performance.now() - t) * 1000);
    };
    for (let n = 1; n <= samples; n++) {
      writeApp(dir, n);
      await timeIt("bare", () => bare.upload(n));
      await timeIt("publish", () =>
        run(["apps", "publish", "--bump", "patch", "--json"], dir, env),
      );
      await timeIt("version", () => run(["--version"], dir, env));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const group = `publish ${PUBLISH_FILES} files, ${PUBLISH_BYTES / 1024 / 1024} MB`;
    const row = (name: string, key: string, baseline?: string): Row => {
      const us = median(times[key]!);
      return { group, name, baseline, opsPerS: 1e6 / us, usPerOp: us };
    };
    const BARE = "bare blob PUT ×200 (keep-alive)";
    return [
      row(BARE, "bare"),
      row("anna-app --version (CLI start-up)", "version", BARE),
      row("anna-app apps publish (end to end)", "publish", BARE),
    ];
  } finally {
    await bare.close();
    await nexus.close();
    rmSync(root, { recursive: true, force: true });
  }
}
