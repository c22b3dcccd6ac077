// A plugin (a real child process) that points `__file_transport` at files it wants the host to
// read or delete: a symlink, a hard link, a file outside the temp directory, a file that is not a
// frame, a file another user owns. The host delivers none of them and deletes none of them; the
// honest pointer sent after them is still read, and its file removed.
import { spawn } from "node:child_process";
import {
  chownSync,
  existsSync,
  linkSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { describe, expect, it, onTestFinished } from "vitest";
import { ChildProcessTransport } from "../../src/node/child-process-transport.js";
import type { DroppedLine } from "../../src/types.js";
import { within } from "../helpers.js";

const STEP_TIMEOUT_MS = 5_000;

/** Prints one pointer line per argv path (ids 1…n), then waits to be killed. */
const PLUGIN = `
const paths = process.argv.slice(1);
paths.forEach((p, i) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: i + 1, __file_transport: p }) + "\\n"));
process.stdin.resume();
`;

const frame = (id: number) => JSON.stringify({ jsonrpc: "2.0", id, result: { stolen: true } });

function inTmp(name: string): string {
  const path = join(tmpdir(), `executa-msg-attack-${randomBytes(6).toString("hex")}-${name}`);
  onTestFinished(() => rmSync(path, { force: true }));
  return path;
}

describe("__file_transport from a hostile plugin", () => {
  it("deletes and delivers nothing it did not read as a frame: symlink, hard link, outside tmp, not a frame, another owner", async () => {
    const privateDir = mkdtempSync(join(tmpdir(), "anna-victim-"));
    onTestFinished(() => rmSync(privateDir, { recursive: true, force: true }));
    const victim = join(privateDir, "victim.json");
    writeFileSync(victim, frame(1));

    const attacks: Record<string, string> = {};
    attacks.symlink = inTmp("link.json");
    symlinkSync(victim, attacks.symlink);
    attacks.hardLink = inTmp("hard.json");
    linkSync(victim, attacks.hardLink);
    attacks.outsideTmp = join(privateDir, "outside.json");
    writeFileSync(attacks.outsideTmp, frame(3));
    attacks.notJson = inTmp("notjson.json");
    writeFileSync(attacks.notJson, "the developer's notes, not a frame");
    attacks.notObject = inTmp("array.json");
    writeFileSync(attacks.notObject, "[1, 2, 3]");
    if (process.getuid?.() === 0) {
      attacks.otherOwner = inTmp("other.json");
      writeFileSync(attacks.otherOwner, frame(6));
      chownSync(attacks.otherOwner, 65534, 65534);
    }
    const honest = inTmp("honest.json");
    const names = Object.keys(attacks);
    writeFileSync(honest, frame(names.length + 1));
    const before = Object.fromEntries(names.map((n) => [n, readFileSync(attacks[n] as string)]));

    const child = spawn(
      process.execPath,
      ["-e", PLUGIN, ...names.map((n) => attacks[n] as string), honest],
      { stdio: ["pipe", "pipe", "pipe"] },
    );
    onTestFinished(async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGKILL");
        await exited;
      }
    });
    const transport = new ChildProcessTransport(child, { name: "hostile" });
    onTestFinished(() => transport.close());
    const dropped: DroppedLine[] = [];
    const honestFrame = new Promise<Record<string, unknown>>((resolve) =>
      transport.start({
        onMessage: (message) => resolve(message as Record<string, unknown>),
        onDropped: (line) => dropped.push(line),
        onClose: () => undefined,
      }),
    );
    // Pointers are resolved in order: once the honest one arrives, every attack was handled.
    expect(await within(honestFrame, STEP_TIMEOUT_MS, "the honest frame")).toMatchObject({
      id: names.length + 1,
    });
    expect(existsSync(honest)).toBe(false);

    const reasons = Object.fromEntries(
      dropped.map((d) => [
        names[Number("idHint" in d ? d.idHint : 0) - 1],
        "error" in d ? d.error : d.reason,
      ]),
    );
    expect(reasons).toEqual({
      symlink: "refusing a symbolic link",
      hardLink: expect.stringContaining("refusing a hard link"),
      outsideTmp: "file is not in the OS temp directory",
      notJson: "file does not hold JSON",
      notObject: "file does not hold a JSON object",
      ...(attacks.otherOwner === undefined
        ? {}
        : { otherOwner: expect.stringContaining("owned by uid 65534") }),
    });
    for (const name of names) {
      const path = attacks[name] as string;
      expect({ name, exists: existsSync(path) }).toEqual({ name, exists: true });
      expect(readFileSync(path)).toEqual(before[name]);
    }
    expect(readFileSync(victim, "utf8")).toBe(frame(1));
  });
});
