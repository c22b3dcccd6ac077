// Hostile and broken downloads: each is refused with the error that names it, nothing of it is
// committed (no version folder, no staging left, no temp download), nothing lands outside the
// install, and the version installed before is still current and still runs.
import { randomBytes } from "node:crypto";
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { type TarEntry, tarGz, zip, type ZipEntry } from "../../../../tests/support/archives.js";
import type { FileServer } from "../../../../tests/support/file-server.js";
import { InstallError, type InstallLimits, installExecuta } from "../../src/install/index.js";
import {
  currentOf,
  fileServer,
  leftoverDownloads,
  sha256,
  shPlugin,
  tempHome,
  toolEntries,
} from "./helpers.js";

const TOOL = "tool-ada-tamper-x1y2z3";
const PLATFORM = "linux-x86_64";
const MANIFEST = JSON.stringify({
  name: "sh-tool",
  runtime: { binary: { entrypoint: "bin/sh-tool" } },
});
const good = (v: string): TarEntry[] => [
  { name: "bin/sh-tool", data: shPlugin(v), mode: 0o755 },
  { name: "manifest.json", data: MANIFEST },
];

async function installedOnce(): Promise<{ home: string; server: FileServer }> {
  const home = tempHome();
  const server = await fileServer();
  server.serve("/good.tar.gz", tarGz(good("1.0.0")));
  await installExecuta(
    {
      distribution_type: "binary",
      tool_id: TOOL,
      version: "1.0.0",
      binary_urls: { "*": server.url("/good.tar.gz") },
    },
    { home, platform: PLATFORM, env: {} },
  );
  return { home, server };
}

async function refused(
  asset: Record<string, unknown> | string,
  code: InstallError["code"],
  message: RegExp,
  ctx: { home: string },
  limits: Partial<InstallLimits> = {},
): Promise<void> {
  const err = await installExecuta(
    {
      distribution_type: "binary",
      tool_id: TOOL,
      version: "1.1.0",
      binary_urls: { "linux-x86_64": asset },
    },
    { home: ctx.home, platform: PLATFORM, env: {}, limits: { idleTimeoutMs: 2_000, ...limits } },
  ).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(InstallError);
  expect((err as InstallError).code).toBe(code);
  expect((err as InstallError).message).toMatch(message);
  expect(toolEntries(ctx.home, TOOL)).toEqual(["current", "v1.0.0"]);
  expect(currentOf(ctx.home, TOOL)).toBe("v1.0.0");
  expect(leftoverDownloads(TOOL)).toEqual([]);
  const out = execFileSync(join(ctx.home, "bin", "sh-tool"), {
    input: '{"jsonrpc":"2.0","id":7,"method":"describe"}\n',
    encoding: "utf8",
  });
  expect(JSON.parse(out)).toMatchObject({ id: 7, result: { version: "1.0.0" } });
}

describe("refused downloads", () => {
  it("refuses a wrong sha256, a wrong size either way, and a truncated body", async () => {
    const ctx = await installedOnce();
    const body = tarGz(good("1.1.0"));
    ctx.server.serve("/next.tar.gz", body);
    const url = ctx.server.url("/next.tar.gz");
    await refused(
      { url, sha256: sha256(Buffer.from("other")) },
      "INTEGRITY_MISMATCH",
      /sha256 [0-9a-f]{64} does not match the declared/,
      ctx,
    );
    await refused({ url, size: body.length + 1 }, "INTEGRITY_MISMATCH", /declares size/, ctx);
    await refused({ url, size: body.length - 1 }, "INTEGRITY_MISMATCH", /declares size/, ctx);
    ctx.server.serve("/cut.tar.gz", { body, cutAfter: Math.floor(body.length / 2) });
    await refused(ctx.server.url("/cut.tar.gz"), "DOWNLOAD_FAILED", /broke off|cut short/, ctx);
    await refused(
      { url: ctx.server.url("/cut.tar.gz"), sha256: sha256(body), size: body.length },
      "DOWNLOAD_FAILED",
      /broke off|cut short/,
      ctx,
    );
  });

  it("refuses a 404, a stalled server, a body over the cap and a platform with no asset", async () => {
    const ctx = await installedOnce();
    await refused(ctx.server.url("/missing.tar.gz"), "DOWNLOAD_FAILED", /answered 404/, ctx);
    const body = tarGz(good("1.1.0"));
    ctx.server.serve("/stall.tar.gz", { body, stallAfter: 10 });
    await refused(ctx.server.url("/stall.tar.gz"), "DOWNLOAD_FAILED", /no data for 300 ms/, ctx, {
      idleTimeoutMs: 300,
    });
    ctx.server.serve("/big.tar.gz", body);
    await refused(ctx.server.url("/big.tar.gz"), "TOO_LARGE", /over the install limit/, ctx, {
      maxDownloadBytes: 64,
    });
    const err = await installExecuta(
      {
        distribution_type: "binary",
        tool_id: TOOL,
        binary_urls: {
          "darwin-arm64": "https://x.test/a.tar.gz",
          "windows-x86_64": "https://x.test/a.zip",
        },
      },
      { home: ctx.home, platform: PLATFORM, env: {} },
    ).catch((e: unknown) => e);
    expect((err as InstallError).message).toBe(
      "No binary available for platform 'linux-x86_64'. Available: darwin-arm64, windows-x86_64",
    );
  });
});

describe("refused archives", () => {
  const tarCases: [string, TarEntry[], InstallError["code"], RegExp][] = [
    [
      "a '..' member (zip-slip)",
      [{ name: "../../../../evil-NAME", data: "x" }],
      "UNSAFE_ARCHIVE",
      /climbs out with '\.\.'/,
    ],
    [
      "an absolute member",
      [{ name: "/tmp/evil-NAME", data: "x" }],
      "UNSAFE_ARCHIVE",
      /is an absolute path/,
    ],
    [
      "a symlink out of the archive",
      [{ name: "lib", type: "symlink", target: "../../../.." }],
      "UNSAFE_ARCHIVE",
      /is a link to .*outside the archive/,
    ],
    [
      "an absolute symlink",
      [{ name: "etc", type: "symlink", target: "/etc" }],
      "UNSAFE_ARCHIVE",
      /link to the absolute path \/etc/,
    ],
    [
      "a write through a symlink",
      [
        { name: "d", type: "dir" },
        { name: "d/up", type: "symlink", target: ".." },
        { name: "d/up/evil-NAME", data: "x" },
      ],
      "UNSAFE_ARCHIVE",
      /written through a symlink/,
    ],
    [
      "a hard link out of the archive",
      [{ name: "passwd", type: "hardlink", target: "../../../../etc/passwd" }],
      "UNSAFE_ARCHIVE",
      /climbs out/,
    ],
    [
      "a hard link to nothing extracted",
      [{ name: "x", type: "hardlink", target: "nope" }],
      "UNSAFE_ARCHIVE",
      /not a file earlier in the archive/,
    ],
    [
      "a device file",
      [{ name: "dev/null", type: "chardev" }],
      "UNSAFE_ARCHIVE",
      /CharacterDevice entry/,
    ],
    ["a FIFO", [{ name: "pipe", type: "fifo" }], "UNSAFE_ARCHIVE", /FIFO entry/],
    [
      "a duplicate member replacing a checked file",
      [{ name: "bin/sh-tool", data: "#!/bin/sh\nrm -rf /\n" }],
      "UNSAFE_ARCHIVE",
      /appears twice/,
    ],
    [
      "a bad manifest name",
      [{ name: "manifest.json", data: '{"name":"../x"}' }],
      "INVALID_MANIFEST",
      /name "\.\.\/x" must be/,
    ],
  ];
  it.each(tarCases)("refuses a tar.gz with %s", async (_what, extra, code, message) => {
    const ctx = await installedOnce();
    const name = randomBytes(4).toString("hex");
    const entries = extra.map((e) => ({ ...e, name: e.name.replace("NAME", name) }) as TarEntry);
    const ordered =
      extra[0]?.name === "manifest.json"
        ? [good("1.1.0")[0]!, ...entries]
        : [...good("1.1.0"), ...entries];
    ctx.server.serve("/bad.tar.gz", tarGz(ordered));
    await refused(ctx.server.url("/bad.tar.gz"), code, message, ctx);
    for (const dir of [ctx.home, dirname(ctx.home), tmpdir(), join(ctx.home, "tools")]) {
      expect(readdirSync(dir).filter((n) => n.includes(`evil-${name}`))).toEqual([]);
    }
    expect(existsSync(join(ctx.home, "tools", TOOL, "passwd"))).toBe(false);
  });

  const zipCases: [string, ZipEntry[], InstallError["code"], RegExp, Partial<InstallLimits>?][] = [
    [
      "a '..' member",
      [{ name: "../../evil", data: "x" }],
      "UNSAFE_ARCHIVE",
      /invalid relative path|climbs out/,
    ],
    ["an absolute member", [{ name: "/tmp/evil", data: "x" }], "UNSAFE_ARCHIVE", /absolute path/],
    [
      "a symlink out of the archive",
      [{ name: "lib", data: "../../../..", mode: 0o120777 }],
      "UNSAFE_ARCHIVE",
      /outside the archive/,
    ],
    ["a FIFO", [{ name: "pipe", mode: 0o010644 }], "UNSAFE_ARCHIVE", /device, FIFO or socket/],
    [
      "a zip bomb (50 MB of zeros in a few KB)",
      [{ name: "data/zeros", data: Buffer.alloc(50 * 1024 * 1024) }],
      "TOO_LARGE",
      /unpacks to more than 10485760 bytes/,
      { maxBytes: 10 * 1024 * 1024 },
    ],
    [
      "a member that inflates past its declared size",
      [{ name: "data/liar", data: Buffer.alloc(100_000), declaredSize: 10 }],
      "CORRUPT_ARCHIVE",
      /not a readable zip/,
    ],
    [
      "too many members",
      Array.from({ length: 30 }, (_, i) => ({ name: `f${i}`, data: "x" })),
      "TOO_LARGE",
      /members is over the install limit of 20/,
      { maxEntries: 20 },
    ],
  ];
  it.each(zipCases)("refuses a zip with %s", async (_what, extra, code, message, limits) => {
    const ctx = await installedOnce();
    const body = zip([
      { name: "bin/sh-tool", data: shPlugin("1.1.0"), mode: 0o100755 },
      { name: "manifest.json", data: MANIFEST },
      ...extra,
    ]);
    if (limits?.maxBytes !== undefined) expect(body.length).toBeLessThan(200_000);
    ctx.server.serve("/bad.zip", body);
    await refused(
      { url: ctx.server.url("/bad.zip"), sha256: sha256(body), size: body.length },
      code,
      message,
      ctx,
      limits,
    );
    expect(existsSync(join(dirname(ctx.home), "evil"))).toBe(false);
  });

  it("refuses bytes that are not the archive format they claim", async () => {
    const ctx = await installedOnce();
    ctx.server.serve("/noise.tar.gz", randomBytes(4096));
    await refused(
      ctx.server.url("/noise.tar.gz"),
      "CORRUPT_ARCHIVE",
      /not a readable tar\.gz/,
      ctx,
    );
    ctx.server.serve("/noise.zip", randomBytes(4096));
    await refused(ctx.server.url("/noise.zip"), "CORRUPT_ARCHIVE", /not a readable zip/, ctx);
    const truncated = tarGz(good("1.1.0"));
    ctx.server.serve("/short.tar.gz", truncated.subarray(0, truncated.length - 40));
    await refused(
      ctx.server.url("/short.tar.gz"),
      "CORRUPT_ARCHIVE",
      /not a readable tar\.gz/,
      ctx,
    );
  });

  it("refuses an archive whose declared entrypoint is missing or a link", async () => {
    const ctx = await installedOnce();
    ctx.server.serve(
      "/noentry.tar.gz",
      tarGz([
        { name: "bin/real", data: "#!/bin/sh\n", mode: 0o755 },
        { name: "bin/sh-tool", type: "symlink", target: "real" },
        { name: "manifest.json", data: MANIFEST },
      ]),
    );
    await refused(
      ctx.server.url("/noentry.tar.gz"),
      "NO_ENTRYPOINT",
      /"bin\/sh-tool" is not a regular file/,
      ctx,
    );
    await refused(
      { url: ctx.server.url("/noentry.tar.gz"), entrypoint: "../../x" },
      "UNSAFE_ARCHIVE",
      /climbs out/,
      ctx,
    );
  });
});
