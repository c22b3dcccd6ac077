// A Nexus with executa binaries for route tests: the harness on a real database, a filesystem
// blob store in a temp folder, small limits (a few bytes per part) so multi-part uploads need no
// large files, and helpers that speak B1–B5 over real HTTP as the published CLI does.
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { onTestFinished } from "vitest";
import { FsBlobStore } from "../../src/blobs/fs-blob-store.js";
import { manualClock, type ManualClock } from "../../src/core/clock.js";
import { type NexusConfig, resolveConfig } from "../../src/core/config.js";
import { memoryLogger } from "../../src/core/logger.js";
import type { DatabaseHandle } from "../../src/db/connect.js";
import { executaBinaries } from "../../src/hub/binaries/binary-uploads.js";
import { oidcVerifier } from "../../src/hub/binaries/oidc.js";
import { type Harness, harness } from "./harness.js";
import { type HubCall, hubHttp, type HubHttp } from "./hub-http.js";

export const DEV = "/api/v1/anna-apps/dev";
export const MY = "/api/v1/executas/my";

export const sha256 = (b: Buffer | string) => createHash("sha256").update(b).digest("hex");

export interface BinaryServer {
  h: Harness;
  hub: HubHttp;
  clock: ManualClock;
  blobRoot: string;
  config: NexusConfig["binaries"];
  /** A developer with a committed tool (version 1.0.0, binary distribution). */
  tool(handle?: string): Promise<{ pat: string; userId: number; id: number; toolId: string }>;
  mint(pat: string, toolId: string): Promise<HubCall>;
  /** A raw request with an upload token (B3–B5). */
  upload(
    token: string,
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<HubCall>;
  part(
    token: string,
    toolId: string,
    uploadId: string,
    platform: string,
    index: number | string,
    bytes: Buffer,
  ): Promise<HubCall>;
}

let people = 0;

export async function binaryServer(
  db: DatabaseHandle,
  binaries: Partial<NexusConfig["binaries"]> = {},
  /** The server's public origin (`--public-origin`); requests still reach it on 127.0.0.1. */
  publicOrigin?: string,
): Promise<BinaryServer> {
  const clock = manualClock();
  const blobRoot = mkdtempSync(join(tmpdir(), "anna-nexus-binaries-"));
  onTestFinished(() => rmSync(blobRoot, { recursive: true, force: true }));
  const config = resolveConfig({
    binaries: { partBytes: 4, maxArtifactBytes: 64, ...binaries },
    ...(publicOrigin === undefined ? {} : { publicOrigin }),
  });
  const blobs = new FsBlobStore({
    root: blobRoot,
    origin: () => "http://127.0.0.1",
    clock: () => clock.now(),
  });
  await blobs.init();
  const h = harness(
    db,
    { binaries: config.binaries, ...(publicOrigin === undefined ? {} : { publicOrigin }) },
    {
      clock,
      binaries: executaBinaries({
        db: db.db,
        blobs,
        clock,
        logger: memoryLogger(),
        config: config.binaries,
        oidc: oidcVerifier({
          issuers: config.binaries.oidcIssuers,
          audience: config.binaries.oidcAudience,
          clock,
        }),
      }),
    },
  );
  const hub = await hubHttp(h);
  const raw = async (
    token: string,
    method: string,
    path: string,
    body: Uint8Array | string | undefined,
    headers: Record<string, string>,
  ): Promise<HubCall> => {
    const res = await fetch(new URL(path, hub.url), {
      method,
      headers: { authorization: `Bearer ${token}`, accept: "application/json", ...headers },
      body,
    });
    const text = await res.text();
    return {
      status: res.status,
      body: text === "" ? null : (JSON.parse(text) as unknown),
      hit: false,
    };
  };
  return {
    h,
    hub,
    clock,
    blobRoot,
    config: config.binaries,
    async tool(handle = `bin${++people}`) {
      const { pat, userId } = await hub.developer(handle);
      const draft = await hub.call(pat, "POST", `${MY}/drafts`, {
        body: { name: "Grep", executa_type: "tool", slug_override: "grep" },
      });
      const commit = await hub.call(
        pat,
        "POST",
        `${MY}/drafts/${String((draft.body as { id: number }).id)}/commit`,
        { body: { payload: { version: "1.0.0", distribution_type: "binary" } } },
      );
      const e = commit.body as { id: number; tool_id: string };
      return { pat, userId, id: e.id, toolId: e.tool_id };
    },
    mint: (pat, toolId) =>
      hub.call(pat, "POST", `${DEV}/upload-session/mint`, { body: { tool_id: toolId } }),
    upload: (token, method, path, body, headers = {}) =>
      raw(
        token,
        method,
        path,
        body === undefined ? undefined : JSON.stringify(body),
        body === undefined ? headers : { "content-type": "application/json", ...headers },
      ),
    part: (token, toolId, uploadId, platform, index, bytes) =>
      raw(
        token,
        "POST",
        `${DEV}/executas/${toolId}/binaries/${uploadId}/part?platform=${platform}&index=${index}`,
        new Uint8Array(bytes),
        { "content-type": "application/octet-stream" },
      ),
  };
}
