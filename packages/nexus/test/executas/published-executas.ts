// Executas published the way a developer publishes them, for the runtime tests: a tool made in
// the Hub, its archive for this machine's platform uploaded through the binary upload API over
// real HTTP (B1–B5: token, init, parts, finalize pins `binary_urls`), then a frozen version. The
// archives hold the repository's example plugins: the Python one as is, the Node one bundled
// into one file with its SDK (an installed plugin has no node_modules to resolve from).
import { chmodSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { platformKey } from "@anna-ai/executa-host";
import { build } from "esbuild";
import { expect, onTestFinished } from "vitest";
import { exampleDir } from "../../../../tests/e2e/examples/example-plugins.js";
import { type TarEntry, tarGz } from "../../../../tests/support/archives.js";
import { type BinaryServer, DEV, MY, binaryServer, sha256 } from "../helpers/binaries.js";
import type { DatabaseHandle } from "../../src/db/connect.js";

export const PLATFORM = platformKey();
const VERSION = "1.0.0";
/** Parts of 1 MiB: the bundled Node example is about 140 KiB, one part. */
const PART_BYTES = 1024 * 1024;

export interface PublishedExecuta {
  toolId: string;
  executaVersionId: number;
  version: string;
  /** The URL pinned in `binary_urls` (this server's own download route). */
  url: string;
}

/** A Nexus that takes binary uploads of real plugin sizes. */
export function pluginServer(db: DatabaseHandle): Promise<BinaryServer> {
  return binaryServer(db, { partBytes: PART_BYTES, maxArtifactBytes: 16 * PART_BYTES });
}

/** Publishes `archive` as the only asset of a new tool, for `platform`, and freezes 1.0.0. */
export async function publishArchive(
  s: BinaryServer,
  archive: Buffer,
  entrypoint: string,
  platform: string = PLATFORM,
): Promise<PublishedExecuta> {
  const { pat, id, toolId } = await s.tool();
  const minted = await s.mint(pat, toolId);
  expect(minted.status, JSON.stringify(minted.body)).toBe(200);
  const token = (minted.body as { upload_token: string }).upload_token;
  const asset = {
    filename: "plugin.tar.gz",
    sha256: sha256(archive),
    byte_size: archive.length,
    format: "tar.gz",
    entrypoint,
  };
  const init = await s.upload(token, "POST", `${DEV}/executas/${toolId}/binaries/init`, {
    executa_version: VERSION,
    assets: { [platform]: asset },
  });
  expect(init.status, JSON.stringify(init.body)).toBe(200);
  const plan = init.body as {
    upload_id: string;
    assets: Record<string, { part_size: number; part_count: number }>;
  };
  const { part_size, part_count } = plan.assets[platform]!;
  for (let i = 0; i < part_count; i++) {
    const bytes = archive.subarray(i * part_size, (i + 1) * part_size);
    const part = await s.part(token, toolId, plan.upload_id, platform, i, bytes);
    expect(part.status, JSON.stringify(part.body)).toBe(200);
  }
  const done = await s.upload(
    token,
    "POST",
    `${DEV}/executas/${toolId}/binaries/${plan.upload_id}/finalize`,
    {},
  );
  expect(done.status, JSON.stringify(done.body)).toBe(200);
  const url = (done.body as { assets: Record<string, { url: string }> }).assets[platform]!.url;
  const frozen = await s.hub.call(pat, "POST", `${MY}/tools/${id}/versions`, {
    body: { version: VERSION },
  });
  expect(frozen.status, JSON.stringify(frozen.body)).toBe(201);
  const executaVersionId = (frozen.body as { id: number }).id;
  return { toolId, executaVersionId, version: VERSION, url };
}

/** A throwaway folder the sandbox's uid can traverse (0711), removed after the test. */
export function reachableTempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  chmodSync(dir, 0o711);
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** `examples/executas/py-weather`: the script is its own entry (`#!/usr/bin/env python3`). */
export function pyWeatherArchive(): Buffer {
  const script = readFileSync(path.join(exampleDir("py-weather"), "weather_plugin.py"));
  return tarGz([{ name: "bin/py-weather", data: script, mode: 0o755 }]);
}

let nodeBundle: Promise<Buffer> | undefined;

/** `examples/executas/ts-notes` bundled with its SDK into `bin/ts-notes.mjs` (a node shebang). */
export async function tsNotesArchive(): Promise<Buffer> {
  nodeBundle ??= (async () => {
    const out = mkdtempSync(path.join(tmpdir(), "anna-ts-notes-bundle-"));
    try {
      await build({
        entryPoints: [path.join(exampleDir("ts-notes"), "dist", "main.js")],
        bundle: true,
        platform: "node",
        format: "esm",
        target: "node20",
        outfile: path.join(out, "main.mjs"),
        logLevel: "silent",
      });
      return readFileSync(path.join(out, "main.mjs"));
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  })();
  const entries: TarEntry[] = [{ name: "bin/ts-notes.mjs", data: await nodeBundle, mode: 0o755 }];
  return tarGz(entries);
}

/** A binary that exits before it answers anything: its describe fails. */
export function silentArchive(): Buffer {
  return tarGz([
    {
      name: "bin/silent",
      data: "#!/bin/sh\necho 'not a JSON-RPC line' >&2\nexit 3\n",
      mode: 0o755,
    },
  ]);
}
