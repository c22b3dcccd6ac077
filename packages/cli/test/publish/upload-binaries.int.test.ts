// `anna-app executa upload-binaries`, `executa trusted-publisher add|list|remove` and `executa
// publish` with binary_artifacts, through the built CLI against a real Nexus on 127.0.0.1
// (SQLite, filesystem blobs, 8-byte parts so small archives take several). A proxy in front of
// Nexus injects failures to check the retries; a local OIDC issuer and a fake GitHub token
// endpoint drive `--oidc` as in a GitHub Actions job.
import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { type CryptoKey, exportJWK, generateKeyPair, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jsonLine, runCli, tempDir, type RunResult } from "../executa-init/helpers.js";
import { privateHome } from "../account/cli-process.js";
import { startTestNexus, type TestNexus } from "../account/nexus-server.js";

const SLOW = { timeout: 240_000 };
const PROCESS_MS = 60_000;
const DEV = "/api/v1/anna-apps/dev";

let nexus: TestNexus;
let issuer: Server;
let issuerUrl = "";
let signKey: CryptoKey;

beforeAll(async () => {
  const pair = await generateKeyPair("RS256");
  signKey = pair.privateKey;
  const jwk = { ...(await exportJWK(pair.publicKey)), kid: "k1", alg: "RS256" };
  issuer = createServer((req, res) => {
    res.setHeader("content-type", "application/json");
    if (req.url === "/.well-known/openid-configuration") {
      res.end(JSON.stringify({ issuer: issuerUrl, jwks_uri: `${issuerUrl}/jwks` }));
    } else if (req.url === "/jwks") res.end(JSON.stringify({ keys: [jwk] }));
    else if (req.url?.startsWith("/gh-token")) {
      // GitHub's token endpoint: the runner's bearer, the audience in the query.
      const aud = new URL(req.url, issuerUrl).searchParams.get("audience");
      if (req.headers.authorization !== "Bearer runner-secret" || aud === null) {
        res.statusCode = 401;
        res.end("{}");
        return;
      }
      void new SignJWT({
        repository: "acme/grep",
        workflow_ref: "acme/grep/.github/workflows/publish.yml@refs/heads/main",
      })
        .setProtectedHeader({ alg: "RS256", kid: "k1" })
        .setIssuer(issuerUrl)
        .setAudience(aud)
        .setIssuedAt()
        .setExpirationTime("5m")
        .sign(signKey)
        .then((value) => res.end(JSON.stringify({ value })));
    } else {
      res.statusCode = 404;
      res.end("{}");
    }
  });
  await new Promise<void>((r) => issuer.listen(0, "127.0.0.1", r));
  issuerUrl = `http://127.0.0.1:${(issuer.address() as AddressInfo).port}`;
  nexus = await startTestNexus({ binaries: { partBytes: 8, oidcIssuers: [issuerUrl] } });
});
afterAll(async () => {
  await nexus?.close();
  await new Promise<void>((r) => (issuer ? issuer.close(() => r()) : r()));
});

let people = 0;
async function developer(handle = `bin${++people}`) {
  const cookie = await nexus.signup(`binaries${people}@example.com`);
  const { pat } = await nexus.devicePat(cookie);
  const res = await fetch(`${nexus.url}/api/v1/developer/profile/handle`, {
    method: "PUT",
    headers: { authorization: `Bearer ${pat}`, "content-type": "application/json" },
    body: JSON.stringify({ handle }),
  });
  expect(res.status).toBe(200);
  const { env } = privateHome();
  const cli = (args: string[], cwd: string, extra: NodeJS.ProcessEnv = {}) =>
    runCli(args, {
      cwd,
      env: { ...env, ANNA_APP_HOST: nexus.url, ANNA_APP_PAT: pat, ...extra },
      timeoutMs: PROCESS_MS,
    });
  return { pat, env, cli };
}

const sha = (b: Buffer | string) => createHash("sha256").update(b).digest("hex");
const LINUX = Buffer.from("linux archive bytes, 29 long.");
const MAC = Buffer.from("mac zip");

async function binaryTool(linux = LINUX, version = "1.0.0") {
  const dir = tempDir("upload-binaries-");
  await mkdir(path.join(dir, "dist"), { recursive: true });
  await writeFile(path.join(dir, "dist", `grep-${version}-linux-x86_64.tar.gz`), linux);
  await writeFile(path.join(dir, "dist", "grep-darwin-arm64.zip"), MAC);
  await writeFile(
    path.join(dir, "executa.json"),
    JSON.stringify({
      type: "binary",
      slug: "grep",
      name: "Grep",
      version,
      distribution: {
        type: "binary",
        binary_artifacts: {
          "linux-x86_64": { path: "dist/grep-{version}-{platform}.tar.gz", entrypoint: "bin/grep" },
          "darwin-arm64": { path: "dist/grep-darwin-arm64.zip" },
        },
      },
    }),
  );
  return dir;
}

/** executa.json of grep 1.0.0 with this distribution. */
const withDistribution = (dir: string, distribution: Record<string, unknown>) =>
  writeFile(
    path.join(dir, "executa.json"),
    JSON.stringify({ slug: "grep", name: "Grep", version: "1.0.0", distribution }),
  );

const ok = (r: RunResult) => {
  expect(r.stderr, r.stderr).not.toMatch(/✗/);
  expect(r.code, r.stderr).toBe(0);
  return r;
};

interface Upload {
  tool_id: string;
  upload_id: string | null;
  platforms: {
    platform: string;
    status: string;
    parts_sent: number;
    url: string | null;
    sha256: string;
  }[];
}

describe("anna-app executa upload-binaries", SLOW, () => {
  it("publish uploads the artifacts before the freeze; a re-run skips them; other bytes for a frozen version are refused", async () => {
    const dev = await developer("acme");
    const dir = await binaryTool();

    const dry = jsonLine(ok(await dev.cli(["executa", "publish", "--dry-run", "--json"], dir))) as {
      plan: { method: string; path: string }[];
    };
    expect(dry.plan.map((q) => q.path.replace(/\?.*/, ""))).toContain(`${DEV}/upload-session/mint`);

    const pub = jsonLine(ok(await dev.cli(["executa", "publish", "--json"], dir))) as {
      executa_id: number;
      tool_id: string;
      binaries: Upload;
      plan: unknown[];
    };
    const linux = pub.binaries.platforms.find((p) => p.platform === "linux-x86_64")!;
    expect(pub.binaries.platforms.map((p) => p.platform)).toEqual(["darwin-arm64", "linux-x86_64"]);
    expect(linux).toMatchObject({ status: "uploaded", parts_sent: 4, sha256: sha(LINUX) });
    expect(linux.url).toBe(
      `${nexus.url}/api/v1/executas/binaries/${pub.tool_id}/1.0.0/linux-x86_64/grep-1.0.0-linux-x86_64.tar.gz`,
    );
    // The frozen version pins them, and the download gives the bytes back.
    const detail = (await (
      await nexus.call("GET", `/api/v1/executas/my/tools/${pub.executa_id}/detail`, dev.pat)
    ).json()) as {
      binary_urls: Record<string, { sha256: string; size: number }>;
      latest_version: unknown;
    };
    expect(detail.binary_urls["linux-x86_64"]).toMatchObject({
      sha256: sha(LINUX),
      size: LINUX.length,
    });
    expect(detail.latest_version).not.toBeNull();
    const got = await nexus.call("GET", new URL(linux.url!).pathname, dev.pat);
    expect(got.headers.get("x-anna-sha256")).toBe(sha(LINUX));
    expect(Buffer.from(await got.arrayBuffer())).toEqual(LINUX);

    const again = jsonLine(
      ok(await dev.cli(["executa", "upload-binaries", "--json"], dir)),
    ) as Upload;
    expect(again.platforms.map((p) => p.status)).toEqual(["exists", "exists"]);
    const dryRun = ok(await dev.cli(["executa", "upload-binaries", "--dry-run"], dir));
    expect(dryRun.stdout).toContain("exists (skip)");
    const dryPublish = jsonLine(
      ok(await dev.cli(["executa", "publish", "--dry-run", "--json"], dir)),
    ) as {
      plan: { path: string; body?: { assets?: Record<string, { sha256: string }> } }[];
    };
    const initStep = dryPublish.plan.find((q) => q.path.endsWith("/binaries/init"))!;
    expect(initStep.body!.assets!["linux-x86_64"]!.sha256).toBe(sha(LINUX));

    // Rebuilt without a version bump: the frozen 1.0.0 keeps its bytes.
    await writeFile(path.join(dir, "dist", "grep-1.0.0-linux-x86_64.tar.gz"), "rebuilt");
    const frozen = await dev.cli(["executa", "upload-binaries"], dir);
    expect(frozen.code).toBe(5);
    expect(frozen.stderr).toMatch(/binary upload failed \(409 version_frozen\).*bump/);

    // A bump uploads the new version's archive (its path has {version}).
    await writeFile(path.join(dir, "dist", "grep-1.0.1-linux-x86_64.tar.gz"), "version two");
    const bumped = jsonLine(
      ok(await dev.cli(["executa", "publish", "--bump", "patch", "--json"], dir)),
    ) as {
      version: string;
      binaries: Upload;
    };
    expect(bumped.version).toBe("1.0.1");
    expect(bumped.binaries.platforms.map((p) => p.status)).toEqual(["uploaded", "uploaded"]);
  });

  it("checks the project locally and exits 4 before any request", async () => {
    const dev = await developer();
    const dir = await binaryTool();
    const noId = await dev.cli(["executa", "upload-binaries"], dir);
    expect(noId.code).toBe(4);
    expect(noId.stderr).toContain("--tool-id");
    await withDistribution(dir, {
      type: "binary",
      binary_urls: { "linux-x86_64": "https://example.com/x.tar.gz" },
      binary_artifacts: { "linux-x86_64": { path: "dist/x.tar.gz" } },
    });
    const both = await dev.cli(["executa", "upload-binaries", "--tool-id", "tool-x"], dir);
    expect(both.code).toBe(4);
    expect(both.stderr).toContain("exactly one of binary_artifacts");
    const missing = await binaryTool();
    await withDistribution(missing, {
      type: "binary",
      binary_artifacts: { "linux-x86_64": { path: "dist/nope.tar.gz" } },
    });
    const absent = await dev.cli(["executa", "upload-binaries", "--tool-id", "tool-x"], missing);
    expect(absent.code).toBe(4);
    expect(absent.stderr).toContain("does not exist");
  });

  it("resumes from the parts the server has, and retries a part only after a 5xx", async () => {
    const dev = await developer();
    const dir = await binaryTool();
    ok(await dev.cli(["executa", "publish", "--json"], dir));
    // A new version whose upload was interrupted after part 0 (sent here with a minted token).
    const dir2 = await binaryTool(Buffer.from("second linux archive, also long"), "2.0.0");
    await mkdir(path.join(dir2, ".anna"), { recursive: true });
    const ident = JSON.parse(
      await import("node:fs/promises").then((fs) =>
        fs.readFile(path.join(dir, ".anna", "executa.json"), "utf8"),
      ),
    ) as Record<string, unknown>;
    await writeFile(path.join(dir2, ".anna", "executa.json"), JSON.stringify(ident));
    const toolId = ident.tool_id as string;
    const mint = (await (
      await fetch(`${nexus.url}${DEV}/upload-session/mint`, {
        method: "POST",
        headers: { authorization: `Bearer ${dev.pat}`, "content-type": "application/json" },
        body: JSON.stringify({ tool_id: toolId }),
      })
    ).json()) as { upload_token: string };
    const bytes = Buffer.from("second linux archive, also long");
    const init = (await (
      await fetch(`${nexus.url}${DEV}/executas/${toolId}/binaries/init`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${mint.upload_token}`,
          "content-type": "application/json",
        },
        body: JSON.stringify({
          executa_version: "2.0.0",
          assets: {
            "darwin-arm64": {
              filename: "grep-darwin-arm64.zip",
              sha256: sha(MAC),
              byte_size: MAC.length,
              format: "zip",
            },
            "linux-x86_64": {
              filename: "grep-2.0.0-linux-x86_64.tar.gz",
              sha256: sha(bytes),
              byte_size: bytes.length,
              format: "tar.gz",
              entrypoint: "bin/grep",
            },
          },
        }),
      })
    ).json()) as { upload_id: string };
    const part0 = await fetch(
      `${nexus.url}${DEV}/executas/${toolId}/binaries/${init.upload_id}/part?platform=linux-x86_64&index=0`,
      {
        method: "POST",
        headers: {
          authorization: `Bearer ${mint.upload_token}`,
          "content-type": "application/octet-stream",
        },
        body: new Uint8Array(bytes.subarray(0, 8)),
      },
    );
    expect(part0.status).toBe(200);

    // A proxy that answers the first part request with 503, then lets everything through.
    const seen: string[] = [];
    let failNext = true;
    const proxy = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const isPart = req.url?.includes("/part?") ?? false;
        if (isPart) {
          const q = new URL(req.url!, nexus.url).searchParams;
          seen.push(`${q.get("platform")}#${q.get("index")}`);
        }
        if (isPart && failNext) {
          failNext = false;
          res.statusCode = 503;
          res.end(JSON.stringify({ detail: { code: "unavailable", message: "try again" } }));
          return;
        }
        const headers = { ...req.headers } as Record<string, string>;
        delete headers.host;
        delete headers["content-length"];
        void fetch(`${nexus.url}${req.url}`, {
          method: req.method,
          headers,
          ...(chunks.length ? { body: Buffer.concat(chunks) } : {}),
        }).then(async (r) => {
          res.statusCode = r.status;
          res.end(Buffer.from(await r.arrayBuffer()));
        });
      });
    });
    await new Promise<void>((r) => proxy.listen(0, "127.0.0.1", r));
    const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    try {
      await writeFile(
        path.join(dir2, ".anna", "executa.json"),
        JSON.stringify({ ...ident, host: proxyUrl }),
      );
      const run = jsonLine(
        ok(
          await dev.cli(["executa", "upload-binaries", "--json"], dir2, {
            ANNA_APP_HOST: proxyUrl,
          }),
        ),
      ) as Upload;
      expect(run.upload_id).toBe(init.upload_id);
      const linux = run.platforms.find((p) => p.platform === "linux-x86_64")!;
      // Platforms in order; darwin's only part failed once (503) and was retried; linux is
      // 31 bytes = 4 parts, of which part 0 was already there.
      expect(linux.parts_sent).toBe(3);
      expect(seen).toEqual([
        "darwin-arm64#0",
        "darwin-arm64#0",
        "linux-x86_64#1",
        "linux-x86_64#2",
        "linux-x86_64#3",
      ]);
    } finally {
      await new Promise<void>((r) => proxy.close(() => r()));
    }
  });

  it("manages trusted publishers and uploads with --oidc and no PAT", async () => {
    const dev = await developer();
    const dir = await binaryTool();
    ok(await dev.cli(["executa", "publish", "--json"], dir));
    const badRepo = await dev.cli(
      ["executa", "trusted-publisher", "add", "--repository", "acme", "--workflow", "publish.yml"],
      dir,
    );
    expect(badRepo.code).toBe(2);
    const badId = await dev.cli(["executa", "trusted-publisher", "remove", "abc"], dir);
    expect(badId.code).toBe(2);
    const added = jsonLine(
      ok(
        await dev.cli(
          [
            "executa",
            "trusted-publisher",
            "add",
            "--repository",
            "acme/grep",
            "--workflow",
            "publish.yml",
            "--json",
          ],
          dir,
        ),
      ),
    ) as { id: number; environment: string | null };
    expect(added.environment).toBeNull();
    const listed = jsonLine(
      ok(await dev.cli(["executa", "trusted-publisher", "list", "--json"], dir)),
    ) as {
      trusted_publishers: { id: number; last_used_at: string | null }[];
    };
    expect(listed.trusted_publishers.map((p) => p.id)).toEqual([added.id]);

    // In CI: no PAT, the runner's OIDC token. The archive changed, so a new version uploads.
    await writeFile(
      path.join(dir, "executa.json"),
      (
        await import("node:fs/promises").then((fs) =>
          fs.readFile(path.join(dir, "executa.json"), "utf8"),
        )
      ).replace('"1.0.0"', '"1.1.0"'),
    );
    await writeFile(path.join(dir, "dist", "grep-1.1.0-linux-x86_64.tar.gz"), "from ci");
    const ci = {
      ANNA_APP_PAT: "",
      ACTIONS_ID_TOKEN_REQUEST_URL: `${issuerUrl}/gh-token?api-version=2.0`,
      ACTIONS_ID_TOKEN_REQUEST_TOKEN: "runner-secret",
    };
    const up = jsonLine(
      ok(
        await dev.cli(
          ["executa", "upload-binaries", "--oidc", "--host", nexus.url, "--json"],
          dir,
          ci,
        ),
      ),
    ) as Upload;
    expect(up.platforms.map((p) => p.status)).toEqual(["uploaded", "uploaded"]);
    const after = jsonLine(
      ok(await dev.cli(["executa", "trusted-publisher", "list", "--json"], dir)),
    ) as {
      trusted_publishers: { last_used_at: string | null }[];
    };
    expect(after.trusted_publishers[0]!.last_used_at).not.toBeNull();

    ok(await dev.cli(["executa", "trusted-publisher", "remove", String(added.id)], dir));
    const refused = await dev.cli(
      ["executa", "upload-binaries", "--oidc", "--host", nexus.url],
      dir,
      ci,
    );
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain("OIDC exchange failed (403 no_trusted_publisher)");
  });
});
