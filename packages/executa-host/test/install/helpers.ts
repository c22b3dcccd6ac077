// Shared set-up for install tests: a fresh install root, a download server, and what "nothing was
// committed" means on disk.
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readlinkSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { onTestFinished } from "vitest";
import { startFileServer, type FileServer } from "../../../../tests/support/file-server.js";

export const sha256 = (b: Buffer): string => createHash("sha256").update(b).digest("hex");

export function tempHome(): string {
  const dir = mkdtempSync(join(tmpdir(), "anna-install-test-"));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export async function fileServer(): Promise<FileServer> {
  const server = await startFileServer();
  onTestFinished(() => server.close());
  return server;
}

/** Names in tools/{id}/, without the lock file. */
export function toolEntries(home: string, toolId: string): string[] {
  return readdirSync(join(home, "tools", toolId))
    .filter((n) => n !== ".lock")
    .sort();
}

export const currentOf = (home: string, toolId: string): string =>
  readlinkSync(join(home, "tools", toolId, "current"));

/** Temp download folders this tool left behind (there must be none after any install). */
export const leftoverDownloads = (toolId: string): string[] =>
  readdirSync(tmpdir()).filter((n) => n.startsWith(`executa-${toolId}-`));

/** A tiny POSIX sh plugin that answers describe/invoke, reporting `version`. */
export function shPlugin(version: string): string {
  return `#!/bin/sh
while IFS= read -r line; do
  case "$line" in *'"method"'*) ;; *) continue ;; esac
  rest=\${line#*\\"id\\":}
  id=\${rest%%[,\\}]*}
  method=\${line#*\\"method\\":\\"}
  method=\${method%%\\"*}
  case "$method" in
    describe) result='{"name":"sh-tool","version":"${version}","description":"test","tools":[{"name":"which","description":"which version","parameters":[]}]}' ;;
    invoke) result='{"success":true,"data":{"version":"${version}","home":"'"$EXECUTA_HOME"'"}}' ;;
    shutdown) result='{}' ;;
    *) printf '{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"Method not found"}}\\n' "$id"; continue ;;
  esac
  printf '{"jsonrpc":"2.0","id":%s,"result":%s}\\n' "$id" "$result"
done
`;
}
