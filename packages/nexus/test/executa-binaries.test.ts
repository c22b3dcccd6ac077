// Executa binaries over real HTTP on SQLite and PostgreSQL (real-world-cli.md §B): B1 upload
// tokens, B3 plans (exists, part size and count, resume), B4 parts, B5 finalize pinning
// `binary_urls`, the download route with its visibility rules, and every tampered upload (wrong
// sha256, wrong size, a part out of range or oversized, another user's tool, an expired token)
// refused with nothing committed. Parts are 4 bytes here, so a 10-byte archive has 3.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DIALECTS, useDialectCleanup } from "./helpers/dialects.js";
import { binaryServer, DEV, MY, sha256, type BinaryServer } from "./helpers/binaries.js";

useDialectCleanup();

type Row = Record<string, unknown>;
const code = (body: unknown) => (body as { detail: { code: string } }).detail.code;
const message = (body: unknown) => (body as { detail: { message: string } }).detail.message;

const LINUX = Buffer.from("0123456789"); // 3 parts: 4 + 4 + 2
const MAC = Buffer.from("abc"); // 1 part

function assets(extra: Record<string, Row> = {}) {
  return {
    "linux-x86_64": {
      filename: "grep-linux.tar.gz",
      sha256: sha256(LINUX),
      byte_size: LINUX.length,
      format: "tar.gz",
      entrypoint: "bin/grep",
    },
    "darwin-arm64": {
      filename: "grep-mac.zip",
      sha256: sha256(MAC),
      byte_size: MAC.length,
      format: "zip",
    },
    ...extra,
  };
}

async function token(s: BinaryServer, pat: string, toolId: string): Promise<string> {
  const m = await s.mint(pat, toolId);
  expect(m.status).toBe(200);
  return (m.body as { upload_token: string }).upload_token;
}

async function init(s: BinaryServer, t: string, toolId: string, body: Row) {
  return s.upload(t, "POST", `${DEV}/executas/${toolId}/binaries/init`, body);
}

const finalize = (s: BinaryServer, t: string, toolId: string, uploadId: string) =>
  s.upload(t, "POST", `${DEV}/executas/${toolId}/binaries/${uploadId}/finalize`, {});

/** Every part of every `upload` platform, in order. */
async function sendAll(
  s: BinaryServer,
  t: string,
  toolId: string,
  plan: { upload_id: string; assets: Record<string, { status: string; part_count: number }> },
  bytes: Record<string, Buffer>,
) {
  for (const [p, a] of Object.entries(plan.assets)) {
    if (a.status === "exists") continue;
    for (let i = 0; i < a.part_count; i++) {
      const r = await s.part(t, toolId, plan.upload_id, p, i, bytes[p]!.subarray(i * 4, i * 4 + 4));
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    }
  }
}

/** Final archives under the blob folder (parts live under `parts/`, hashed names hide both). */
const objectCount = (s: BinaryServer) =>
  readdirSync(join(s.blobRoot, "objects")).filter((f) => !f.endsWith(".json")).length;

describe.each(DIALECTS)("executa binaries on $name", (d) => {
  it.skipIf(d.skip)(
    "uploads two platforms in parts, pins binary_urls, serves them by visibility, and answers a re-run with exists",
    async () => {
      const s = await binaryServer(await d.open());
      const { pat, id, toolId } = await s.tool("acme");
      const t = await token(s, pat, toolId);
      expect(t).toMatch(/^anna_upl_/);

      const dry = await init(s, t, toolId, {
        executa_version: "1.0.0",
        assets: assets(),
        dry_run: true,
      });
      expect(dry.status).toBe(200);
      expect(dry.body).toMatchObject({
        upload_id: null,
        assets: { "linux-x86_64": { status: "upload" }, "darwin-arm64": { status: "upload" } },
      });

      const planned = await init(s, t, toolId, { executa_version: "1.0.0", assets: assets() });
      expect(planned.status).toBe(200);
      const plan = planned.body as {
        upload_id: string;
        assets: Record<
          string,
          { status: string; part_size: number; part_count: number; uploaded_parts: number[] }
        >;
      };
      expect(plan.upload_id).toMatch(/^bup_/);
      expect(Object.keys(plan.assets)).toEqual(["darwin-arm64", "linux-x86_64"]);
      expect(plan.assets["linux-x86_64"]).toMatchObject({
        status: "upload",
        part_size: 4,
        part_count: 3,
        uploaded_parts: [],
      });
      expect(plan.assets["darwin-arm64"]).toMatchObject({ part_count: 1 });

      // Interrupted after one part: the same plan resumes with what was received.
      expect(
        (await s.part(t, toolId, plan.upload_id, "linux-x86_64", 0, LINUX.subarray(0, 4))).status,
      ).toBe(200);
      const resumed = await init(s, t, toolId, { executa_version: "1.0.0", assets: assets() });
      expect(resumed.body).toMatchObject({
        upload_id: plan.upload_id,
        assets: { "linux-x86_64": { uploaded_parts: [0] } },
      });

      await sendAll(s, t, toolId, plan, { "linux-x86_64": LINUX, "darwin-arm64": MAC });
      const done = await finalize(s, t, toolId, plan.upload_id);
      expect(done.status, JSON.stringify(done.body)).toBe(200);
      const fin = done.body as {
        assets: Record<string, { sha256: string; url: string; status: string }>;
      };
      expect(fin.assets["linux-x86_64"]!.sha256).toBe(sha256(LINUX));
      expect(fin.assets["linux-x86_64"]!.url).toBe(
        `${s.hub.url}/api/v1/executas/binaries/${toolId}/1.0.0/linux-x86_64/grep-linux.tar.gz`,
      );
      // A retried finalize answers the same.
      expect((await finalize(s, t, toolId, plan.upload_id)).body).toEqual(done.body);

      const detail = await s.hub.call(pat, "GET", `${MY}/tools/${id}/detail`);
      expect((detail.body as Row).binary_urls).toEqual({
        "darwin-arm64": {
          url: fin.assets["darwin-arm64"]!.url,
          sha256: sha256(MAC),
          size: 3,
          format: "zip",
        },
        "linux-x86_64": {
          url: fin.assets["linux-x86_64"]!.url,
          sha256: sha256(LINUX),
          size: 10,
          format: "tar.gz",
          entrypoint: "bin/grep",
        },
      });

      // Downloads: private → the owner only; app_bundled → any signed-in user; public → anyone.
      const url = fin.assets["linux-x86_64"]!.url;
      const other = await s.hub.developer("other");
      const get = (auth?: string) =>
        fetch(url, auth ? { headers: { authorization: `Bearer ${auth}` } } : {});
      expect((await get()).status).toBe(404);
      expect((await get(other.pat)).status).toBe(404);
      const mine = await get(pat);
      expect(mine.status).toBe(200);
      expect(mine.headers.get("content-type")).toBe("application/gzip");
      expect(mine.headers.get("content-length")).toBe("10");
      expect(mine.headers.get("x-anna-sha256")).toBe(sha256(LINUX));
      expect(Buffer.from(await mine.arrayBuffer())).toEqual(LINUX);
      const promote = await s.hub.call(pat, "POST", `${MY}/tools/${id}/visibility`, {
        body: { visibility: "app_bundled" },
      });
      expect(promote.status).toBe(200);
      expect((await get(other.pat)).status).toBe(200);
      expect((await get()).status).toBe(404);
      await s.hub.call(pat, "POST", `${MY}/tools/${id}/visibility`, {
        body: { visibility: "public" },
      });
      const anyone = await get();
      expect(anyone.status).toBe(200);
      expect(anyone.headers.get("cache-control")).toContain("immutable");
      expect(Buffer.from(await anyone.arrayBuffer())).toEqual(LINUX);
      const wrongName = await fetch(url.replace("grep-linux.tar.gz", "other.tar.gz"));
      expect(wrongName.status).toBe(404);

      // The same bytes again (a re-run after the freeze): nothing to upload, finalize still answers.
      const again = await init(s, t, toolId, { executa_version: "1.0.0", assets: assets() });
      const a2 = again.body as { upload_id: string; assets: Record<string, { status: string }> };
      expect(a2.assets["linux-x86_64"]!.status).toBe("exists");
      expect(a2.assets["darwin-arm64"]!.status).toBe("exists");
      const fin2 = await finalize(s, t, toolId, a2.upload_id);
      expect(fin2.status).toBe(200);
      expect(
        (fin2.body as { assets: Record<string, { sha256: string }> }).assets["linux-x86_64"]!
          .sha256,
      ).toBe(sha256(LINUX));

      // 1.0.0 is frozen (the first promotion froze it): other bytes for it are refused.
      const changed = await init(s, t, toolId, {
        executa_version: "1.0.0",
        assets: {
          "linux-x86_64": { ...assets()["linux-x86_64"], sha256: sha256("x"), byte_size: 1 },
        },
      });
      expect(changed.status).toBe(409);
      expect(code(changed.body)).toBe("version_frozen");
      expect(message(changed.body)).toContain("--bump patch");
    },
  );

  it.skipIf(d.skip)(
    "keeps pinned binary_urls across a PUT that sends none for the same version",
    async () => {
      const s = await binaryServer(await d.open());
      const { pat, id, toolId } = await s.tool();
      const t = await token(s, pat, toolId);
      const plan = (
        await init(s, t, toolId, {
          executa_version: "1.0.0",
          assets: { "darwin-arm64": assets()["darwin-arm64"] },
        })
      ).body as never;
      await sendAll(s, t, toolId, plan, { "darwin-arm64": MAC });
      expect((await finalize(s, t, toolId, (plan as { upload_id: string }).upload_id)).status).toBe(
        200,
      );
      const put = await s.hub.call(pat, "PUT", `${MY}/tools/${id}`, {
        body: { name: "Grep", version: "1.0.0", distribution_type: "binary" },
      });
      expect(put.status).toBe(200);
      expect(Object.keys((put.body as { binary_urls: Row }).binary_urls)).toEqual(["darwin-arm64"]);
      const next = await s.hub.call(pat, "PUT", `${MY}/tools/${id}`, {
        body: { name: "Grep", version: "1.1.0", distribution_type: "binary" },
      });
      expect((next.body as Row).binary_urls).toBeUndefined();
    },
  );

  it.skipIf(d.skip)(
    "pins binary URLs on the public origin when one is set, whichever node the upload reached",
    async () => {
      // A cluster node reached directly (127.0.0.1) still writes the URL every node installs from.
      const s = await binaryServer(await d.open(), {}, "https://nexus.example.com");
      const { pat, toolId } = await s.tool("acme");
      const t = await token(s, pat, toolId);
      const plan = (await init(s, t, toolId, { executa_version: "1.0.0", assets: assets() }))
        .body as Parameters<typeof sendAll>[3];
      await sendAll(s, t, toolId, plan, { "linux-x86_64": LINUX, "darwin-arm64": MAC });
      const done = await finalize(s, t, toolId, plan.upload_id);
      expect(done.status, JSON.stringify(done.body)).toBe(200);
      expect(
        (done.body as { assets: Record<string, { url: string }> }).assets["linux-x86_64"]!.url,
      ).toBe(
        `https://nexus.example.com/api/v1/executas/binaries/${toolId}/1.0.0/linux-x86_64/grep-linux.tar.gz`,
      );
    },
  );

  it.skipIf(d.skip)("refuses tampered uploads and commits nothing", async () => {
    const s = await binaryServer(await d.open());
    const { pat, id, toolId } = await s.tool();
    const t = await token(s, pat, toolId);
    const lying = {
      "linux-x86_64": { ...assets()["linux-x86_64"], sha256: sha256("something else") },
    };
    const plan = (await init(s, t, toolId, { executa_version: "1.0.0", assets: lying })).body as {
      upload_id: string;
      assets: Record<string, { status: string; part_count: number }>;
    };
    const path = (p: string) => `${DEV}/executas/${toolId}/binaries/${plan.upload_id}/${p}`;

    // Out of range, not a number, a platform not planned, oversized, short.
    const outOfRange = await s.part(
      t,
      toolId,
      plan.upload_id,
      "linux-x86_64",
      3,
      Buffer.from("89"),
    );
    expect(outOfRange.status).toBe(400);
    expect(message(outOfRange.body)).toContain("0–2");
    expect(
      (await s.part(t, toolId, plan.upload_id, "linux-x86_64", "-1", Buffer.from("x"))).status,
    ).toBe(400);
    expect((await s.part(t, toolId, plan.upload_id, "darwin-arm64", 0, MAC)).status).toBe(400);
    const big = await s.part(
      t,
      toolId,
      plan.upload_id,
      "linux-x86_64",
      0,
      Buffer.from("0123456789"),
    );
    expect(big.status).toBe(413);
    const short = await s.part(t, toolId, plan.upload_id, "linux-x86_64", 0, Buffer.from("01"));
    expect(short.status).toBe(422);
    expect(code(short.body)).toBe("size_mismatch");
    // Chunked (no Content-Length) and over the part: cut off at the cap.
    const chunked = await fetch(new URL(path("part?platform=linux-x86_64&index=1"), s.hub.url), {
      method: "POST",
      headers: { authorization: `Bearer ${t}`, "content-type": "application/octet-stream" },
      body: new ReadableStream({
        start(c) {
          c.enqueue(new TextEncoder().encode("4567"));
          c.enqueue(new TextEncoder().encode("extra"));
          c.close();
        },
      }),
      duplex: "half",
    } as RequestInit);
    expect(chunked.status).toBe(413);

    // Finalize before every part: refused, naming the missing ones.
    const early = await finalize(s, t, toolId, plan.upload_id);
    expect(early.status).toBe(409);
    expect(code(early.body)).toBe("upload_incomplete");
    expect(message(early.body)).toContain("linux-x86_64 0,1,2");

    await sendAll(s, t, toolId, plan, { "linux-x86_64": LINUX });
    const objectsBefore = objectCount(s);
    const bad = await finalize(s, t, toolId, plan.upload_id);
    expect(bad.status).toBe(422);
    expect(code(bad.body)).toBe("checksum_mismatch");
    expect(message(bad.body)).toContain(sha256(LINUX));
    const detail = (await s.hub.call(pat, "GET", `${MY}/tools/${id}/detail`)).body as Row;
    expect(detail.binary_urls).toBeUndefined();
    // The assembled archive was deleted and the bad parts dropped: fewer objects, not more.
    expect(objectCount(s)).toBeLessThan(objectsBefore);
    const retry = await init(s, t, toolId, { executa_version: "1.0.0", assets: lying });
    expect(retry.body).toMatchObject({
      upload_id: plan.upload_id,
      assets: { "linux-x86_64": { uploaded_parts: [] } },
    });

    // A declared size that does not match the bytes: the parts are sized by the plan, so a
    // 10-byte file declared as 9 cannot be sent whole.
    const nine = { "linux-x86_64": { ...assets()["linux-x86_64"], byte_size: 9 } };
    const p9 = (await init(s, t, toolId, { executa_version: "1.0.0", assets: nine })).body as {
      upload_id: string;
    };
    expect(
      (await s.part(t, toolId, p9.upload_id, "linux-x86_64", 2, Buffer.from("89"))).status,
    ).toBe(413);

    // Another user's tool: no token for it, and this token does not reach it.
    const other = await s.tool();
    const theirs = await s.mint(pat, other.toolId);
    expect(theirs.status).toBe(404);
    const cross = await init(s, t, other.toolId, { executa_version: "1.0.0", assets: assets() });
    expect(cross.status).toBe(403);
    const theirToken = await token(s, other.pat, other.toolId);
    const foreignUpload = await s.upload(
      theirToken,
      "POST",
      `${DEV}/executas/${other.toolId}/binaries/${plan.upload_id}/finalize`,
      {},
    );
    expect(foreignUpload.status).toBe(404);

    // An expired upload token (15 minutes), then a forged one.
    s.clock.advance(s.config.uploadTokenTtlMs + 1);
    const late = await init(s, t, toolId, { executa_version: "1.0.0", assets: assets() });
    expect(late.status).toBe(401);
    expect(code(late.body)).toBe("token_expired");
    expect(
      (await init(s, "anna_upl_forged", toolId, { executa_version: "1.0.0", assets: assets() }))
        .status,
    ).toBe(401);
    expect(
      (await init(s, pat, toolId, { executa_version: "1.0.0", assets: assets() })).status,
    ).toBe(401);

    // An upload not finalized within its lifetime is gone.
    s.clock.advance(s.config.uploadTtlMs);
    const fresh = await token(s, pat, toolId);
    const expired = await finalize(s, fresh, toolId, plan.upload_id);
    expect(expired.status).toBe(410);
    expect(code(expired.body)).toBe("upload_expired");
    const final = (await s.hub.call(pat, "GET", `${MY}/tools/${id}/detail`)).body as Row;
    expect(final.binary_urls).toBeUndefined();
  });

  it.skipIf(d.skip)("checks init bodies, tokens and scopes", async () => {
    const s = await binaryServer(await d.open());
    const { pat, toolId } = await s.tool();
    const t = await token(s, pat, toolId);
    const bad = async (assetsBody: unknown, version = "1.0.0") =>
      init(s, t, toolId, { executa_version: version, assets: assetsBody });
    const one = assets()["darwin-arm64"];
    expect(message((await bad({ "linux-armv7l": one })).body)).toContain("unknown platform");
    expect((await bad({ "darwin-arm64": { ...one, format: "raw" } })).status).toBe(400);
    expect((await bad({ "darwin-arm64": { ...one, filename: "../x.zip" } })).status).toBe(400);
    expect((await bad({ "darwin-arm64": { ...one, byte_size: 0 } })).status).toBe(400);
    const huge = await bad({ "darwin-arm64": { ...one, byte_size: 65 } });
    expect(huge.status).toBe(413);
    expect(message(huge.body)).toContain("64-byte limit");
    expect((await bad({})).status).toBe(400);
    expect((await bad({ "darwin-arm64": one }, "latest")).status).toBe(400);
    const tgz = await bad({ "darwin-arm64": { ...one, format: "tgz" } });
    expect(tgz.status).toBe(200);
    expect(
      (tgz.body as { assets: Record<string, { format: string }> }).assets["darwin-arm64"]!.format,
    ).toBe("tar.gz");

    expect(
      (
        await s.hub.call("anna_pat_nope", "POST", `${DEV}/upload-session/mint`, {
          body: { tool_id: toolId },
        })
      ).status,
    ).toBe(401);
    const { pat: narrow } = await s.hub.developer("narrow", ["aps:dev"]);
    const scoped = await s.hub.call(narrow, "POST", `${DEV}/upload-session/mint`, {
      body: { tool_id: toolId },
    });
    expect(scoped.status).toBe(403);
    expect(code(scoped.body)).toBe("missing_scope");
  });

  it.skipIf(d.skip)("manages trusted publishers for the owner only", async () => {
    const s = await binaryServer(await d.open());
    const { pat, toolId } = await s.tool();
    const path = `${DEV}/executas/${toolId}/trusted-publishers`;
    expect((await s.hub.call(pat, "GET", path)).body).toEqual({ trusted_publishers: [] });
    const add = await s.hub.call(pat, "POST", path, {
      body: { repository: "acme/grep", workflow: ".github/workflows/publish.yml" },
    });
    expect(add.status).toBe(201);
    expect(add.body).toMatchObject({
      repository: "acme/grep",
      workflow: "publish.yml",
      environment: null,
      last_used_at: null,
    });
    const withEnv = await s.hub.call(pat, "POST", path, {
      body: { repository: "acme/grep", workflow: "publish.yml", environment: "production" },
    });
    expect(withEnv.status).toBe(201);
    const dup = await s.hub.call(pat, "POST", path, {
      body: { repository: "acme/grep", workflow: "publish.yml" },
    });
    expect(dup.status).toBe(409);
    expect(code(dup.body)).toBe("publisher_exists");
    expect(
      (await s.hub.call(pat, "POST", path, { body: { repository: "acme", workflow: "x.yml" } }))
        .status,
    ).toBe(400);
    expect(
      (await s.hub.call(pat, "POST", path, { body: { repository: "a/b", workflow: "x.sh" } }))
        .status,
    ).toBe(400);
    const list = (await s.hub.call(pat, "GET", path)).body as { trusted_publishers: Row[] };
    expect(list.trusted_publishers.map((p) => p.environment)).toEqual([null, "production"]);

    const other = await s.hub.developer("intruder");
    expect((await s.hub.call(other.pat, "GET", path)).status).toBe(404);
    const id = String((add.body as Row).id);
    expect((await s.hub.call(other.pat, "DELETE", `${path}/${id}`)).status).toBe(404);
    expect((await s.hub.call(pat, "DELETE", `${path}/${id}`)).status).toBe(200);
    expect((await s.hub.call(pat, "DELETE", `${path}/${id}`)).status).toBe(404);
    expect(
      ((await s.hub.call(pat, "GET", path)).body as { trusted_publishers: Row[] })
        .trusted_publishers,
    ).toHaveLength(1);
  });
});
