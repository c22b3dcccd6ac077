// The install pipeline against a real download server on 127.0.0.1 and a real install root:
// layout, INSTALL.json, shims, GC, same-version rollback, the legacy layout and `local`.
import { execFileSync } from "node:child_process";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tarGz, zip } from "../../../../tests/support/archives.js";
import { ExecutaHost } from "../../src/index.js";
import {
  type InstallProgress,
  installedLaunchSpec,
  versionLaunchSpec,
  installExecuta,
  listInstalled,
} from "../../src/install/index.js";
import {
  currentOf,
  fileServer,
  leftoverDownloads,
  sha256,
  shPlugin,
  tempHome,
  toolEntries,
} from "./helpers.js";

const TOOL = "tool-ada-sh-tool-a1b2c3";
const PLATFORM = "linux-x86_64";

function bundle(version: string, extra: { manifest?: object } = {}): Buffer {
  return tarGz([
    { name: "bin/", type: "dir" },
    { name: "bin/sh-tool", data: shPlugin(version), mode: 0o644 },
    { name: "lib/helper.sh", data: "#!/bin/sh\necho helper\n", mode: 0o644 },
    { name: "data/quotes.txt", data: "hello\n" },
    {
      name: "manifest.json",
      data: JSON.stringify(
        extra.manifest ?? {
          name: "sh-tool",
          version,
          runtime: {
            binary: {
              entrypoint: { default: "bin/sh-tool", "windows-x86_64": "bin/sh-tool.exe" },
              permissions: { "lib/helper.sh": "0o755" },
            },
          },
        },
      ),
    },
  ]);
}

describe("installExecuta (binary)", () => {
  it("installs a verified tar.gz as tools/{tool_id}/v{version} with current, the shim and INSTALL.json", async () => {
    const home = tempHome();
    const server = await fileServer();
    const body = bundle("1.0.0");
    server.serve("/sh-tool-linux-x86_64.tar.gz", body);
    const events: InstallProgress[] = [];
    const binaryUrls = {
      "darwin-arm64": { url: server.url("/nope.tar.gz") },
      "linux-x86_64": {
        url: server.url("/sh-tool-linux-x86_64.tar.gz"),
        sha256: sha256(body),
        size: body.length,
      },
    };
    const result = await installExecuta(
      { distribution_type: "binary", tool_id: TOOL, version: "1.0.0", binary_urls: binaryUrls },
      { home, platform: PLATFORM, onProgress: (e) => events.push(e), env: {} },
    );
    const toolDir = join(home, "tools", TOOL);
    expect(result).toMatchObject({
      tool_id: TOOL,
      name: "sh-tool",
      version: "1.0.0",
      layout: "v2",
    });
    expect(toolEntries(home, TOOL)).toEqual(["current", "v1.0.0"]);
    expect(currentOf(home, TOOL)).toBe("v1.0.0");
    expect(result.entrypoint).toBe(join(toolDir, "current", "bin", "sh-tool"));
    // The entry and the manifest's permissions are executable; data is not.
    expect(statSync(join(toolDir, "v1.0.0/bin/sh-tool")).mode & 0o777).toBe(0o755);
    expect(statSync(join(toolDir, "v1.0.0/lib/helper.sh")).mode & 0o777).toBe(0o755);
    expect(statSync(join(toolDir, "v1.0.0/data/quotes.txt")).mode & 0o111).toBe(0);
    const shim = join(home, "bin", "sh-tool");
    expect(lstatSync(shim).isSymbolicLink()).toBe(true);
    expect(readlinkSync(shim)).toBe(join("..", "tools", TOOL, "current", "bin", "sh-tool"));
    const record = JSON.parse(
      readFileSync(join(toolDir, "current", "INSTALL.json"), "utf8"),
    ) as Record<string, unknown>;
    expect(record).toMatchObject({
      tool_id: TOOL,
      name: "sh-tool",
      version: "1.0.0",
      entrypoint: "bin/sh-tool",
      url: server.url("/sh-tool-linux-x86_64.tar.gz"),
      sha256: sha256(body),
      size: body.length,
      format: "tar.gz",
      platform: PLATFORM,
      binary_urls: binaryUrls,
    });
    expect(typeof record.installed_at).toBe("string");
    // Progress: resolve → download (to the full size) → extract → commit → done.
    expect(events.map((e) => e.phase).filter((p, i, a) => p !== a[i - 1])).toEqual([
      "resolve",
      "download",
      "extract",
      "commit",
      "done",
    ]);
    expect(events.filter((e) => e.phase === "download").at(-1)).toMatchObject({
      bytes_downloaded: body.length,
      bytes_total: body.length,
    });
    expect(leftoverDownloads(TOOL)).toEqual([]);
    // The shim runs the installed plugin.
    const out = execFileSync(shim, {
      input: '{"jsonrpc":"2.0","id":1,"method":"describe"}\n',
      encoding: "utf8",
    });
    expect(JSON.parse(out)).toMatchObject({ id: 1, result: { version: "1.0.0" } });
  });

  it("starts a kept older version from its own folder, not current (versionLaunchSpec)", async () => {
    const home = tempHome();
    const server = await fileServer();
    for (const v of ["1.0.0", "1.1.0"]) server.serve(`/${v}.tar.gz`, bundle(v));
    const dirs: string[] = [];
    for (const v of ["1.0.0", "1.1.0"]) {
      const result = await installExecuta(
        {
          distribution_type: "binary",
          tool_id: TOOL,
          version: v,
          binary_urls: { "*": server.url(`/${v}.tar.gz`) },
        },
        { home, platform: PLATFORM, env: { EXECUTA_KEEP_VERSIONS: "4" } },
      );
      dirs.push(result.dir);
    }
    const env = { PATH: process.env.PATH ?? "" };
    const old = await versionLaunchSpec(dirs[0]!, { env });
    expect(old).toMatchObject({ toolId: TOOL, type: "binary", cwd: dirs[0] });
    expect(old.env.EXECUTA_HOME).toBe(dirs[0]);
    const host = new ExecutaHost({ env });
    try {
      host.register(old, { userId: "u-old" });
      host.register(await versionLaunchSpec(dirs[1]!, { env }), { userId: "u-new" });
      expect(await host.invoke("u-old", TOOL, "which", {})).toMatchObject({
        ok: true,
        data: { version: "1.0.0", home: dirs[0] },
      });
      expect(await host.invoke("u-new", TOOL, "which", {})).toMatchObject({
        ok: true,
        data: { version: "1.1.0", home: dirs[1] },
      });
    } finally {
      await host.close();
    }
    await expect(versionLaunchSpec(join(home, "tools", TOOL), { env })).rejects.toThrow(
      /holds no INSTALL\.json; it is not an installed executa version/,
    );
  });

  it("starts an installed executa under ExecutaHost through current, and the next version after an upgrade", async () => {
    const home = tempHome();
    const server = await fileServer();
    for (const v of ["1.0.0", "1.1.0"]) server.serve(`/${v}.tar.gz`, bundle(v));
    const install = (v: string) =>
      installExecuta(
        {
          distribution_type: "binary",
          tool_id: TOOL,
          version: v,
          binary_urls: { "*": server.url(`/${v}.tar.gz`) },
        },
        { home, platform: PLATFORM, env: {} },
      );
    await install("1.0.0");
    const host = new ExecutaHost({ env: { PATH: process.env.PATH ?? "" } });
    try {
      const spec = await installedLaunchSpec(TOOL, { home, env: { PATH: process.env.PATH ?? "" } });
      expect(spec).toMatchObject({
        toolId: TOOL,
        type: "binary",
        cwd: join(home, "tools", TOOL, "current"),
      });
      expect(spec.env.EXECUTA_HOME).toBe(join(home, "tools", TOOL, "current"));
      expect(spec.env.EXECUTA_DATA).toBe(join(home, "tools", TOOL, "current", "data"));
      const plugin = host.register(spec, { userId: "u1" });
      expect((await plugin.describe()).tools.map((t) => t.name)).toEqual(["which"]);
      const first = await host.invoke("u1", TOOL, "which", {});
      expect(first).toMatchObject({
        ok: true,
        data: { version: "1.0.0", home: join(home, "tools", TOOL, "current") },
      });
      await host.unregister("u1", TOOL);
      await install("1.1.0");
      host.register(
        await installedLaunchSpec(TOOL, { home, env: { PATH: process.env.PATH ?? "" } }),
        { userId: "u1" },
      );
      expect(await host.invoke("u1", TOOL, "which", {})).toMatchObject({
        ok: true,
        data: { version: "1.1.0" },
      });
    } finally {
      await host.close();
    }
    expect((await listInstalled(home)).map((i) => [i.record.tool_id, i.record.version])).toEqual([
      [TOOL, "1.1.0"],
    ]);
  });

  it("installs a zip whose manifest restores the execute bits zip dropped", async () => {
    const home = tempHome();
    const server = await fileServer();
    const body = zip([
      { name: "bin/", mode: 0o040755 },
      { name: "bin/sh-tool", data: shPlugin("2.0.0"), mode: 0o100644 },
      { name: "share/bin/helper", data: "#!/bin/sh\n", mode: 0o100644 },
      {
        name: "manifest.json",
        data: JSON.stringify({
          name: "sh-tool",
          version: "2.0.0",
          runtime: {
            binary: { entrypoint: "bin/sh-tool", permissions: { "share/bin/helper": "755" } },
          },
        }),
      },
    ]);
    server.serve("/tool.zip", body);
    const result = await installExecuta(
      {
        distribution_type: "binary",
        tool_id: TOOL,
        binary_urls: { linux: { url: server.url("/tool.zip"), sha256: sha256(body) } },
      },
      { home, platform: PLATFORM, env: {} },
    );
    // No version in the request: the manifest's names the folder.
    expect(result.version).toBe("2.0.0");
    const v = join(home, "tools", TOOL, "v2.0.0");
    expect(statSync(join(v, "bin/sh-tool")).mode & 0o777).toBe(0o755);
    expect(statSync(join(v, "share/bin/helper")).mode & 0o777).toBe(0o755);
  });

  it("downloads a raw executable to bin/{name} and names the install after executable_name", async () => {
    const home = tempHome();
    const server = await fileServer();
    server.serve("/sh-tool-linux-x86_64", Buffer.from(shPlugin("0.3.0")));
    const result = await installExecuta(
      {
        distribution_type: "binary",
        tool_id: TOOL,
        version: "0.3.0",
        executable_name: "shy",
        binary_urls: { "linux-x86_64": server.url("/sh-tool-linux-x86_64") },
      },
      { home, platform: PLATFORM, env: {} },
    );
    expect(result.record).toMatchObject({
      format: "raw",
      entrypoint: "bin/shy",
      sha256: expect.any(String),
    });
    expect(statSync(join(home, "bin", "shy")).mode & 0o111).not.toBe(0);
  });

  it("keeps EXECUTA_KEEP_VERSIONS old versions besides current (default 1) and removes the rest", async () => {
    const home = tempHome();
    const server = await fileServer();
    const versions = ["1.0.0", "1.1.0", "1.2.0", "1.3.0"];
    for (const v of versions) server.serve(`/${v}.tar.gz`, bundle(v));
    let t = Date.parse("2026-01-01T00:00:00Z");
    const install = (v: string, env: NodeJS.ProcessEnv) =>
      installExecuta(
        {
          distribution_type: "binary",
          tool_id: TOOL,
          version: v,
          binary_urls: { "*": server.url(`/${v}.tar.gz`) },
        },
        { home, platform: PLATFORM, env, now: () => new Date((t += 60_000)) },
      );
    await install("1.0.0", {});
    await install("1.1.0", {});
    const third = await install("1.2.0", {});
    expect(third.removed_versions).toEqual(["v1.0.0"]);
    expect(toolEntries(home, TOOL)).toEqual(["current", "v1.1.0", "v1.2.0"]);
    const fourth = await install("1.3.0", { EXECUTA_KEEP_VERSIONS: "0" });
    expect(fourth.removed_versions.sort()).toEqual(["v1.1.0", "v1.2.0"]);
    expect(toolEntries(home, TOOL)).toEqual(["current", "v1.3.0"]);
    // Reinstalling an older version makes it current; the newer one is the old version kept.
    server.serve("/1.0.0.tar.gz", bundle("1.0.0"));
    await install("1.0.0", {});
    expect(currentOf(home, TOOL)).toBe("v1.0.0");
    expect(toolEntries(home, TOOL)).toEqual(["current", "v1.0.0", "v1.3.0"]);
    await expect(install("1.0.0", { EXECUTA_KEEP_VERSIONS: "many" })).rejects.toThrow(
      /EXECUTA_KEEP_VERSIONS=many must be a whole number/,
    );
  });

  it("replaces the same version in place and rolls it back when the commit fails", async () => {
    const home = tempHome();
    const server = await fileServer();
    server.serve("/a.tar.gz", bundle("1.0.0"));
    const request = (path: string, version = "1.0.0") => ({
      distribution_type: "binary",
      tool_id: TOOL,
      version,
      binary_urls: { "*": server.url(path) },
    });
    await installExecuta(request("/a.tar.gz"), { home, platform: PLATFORM, env: {} });
    const entry = join(home, "tools", TOOL, "v1.0.0", "bin", "sh-tool");
    expect(readFileSync(entry, "utf8")).toContain('"version":"1.0.0"');

    // Same version, new bytes: replaced, and the folder moved aside is gone.
    server.serve(
      "/b.tar.gz",
      bundle("1.0.0-rebuilt", {
        manifest: { name: "sh-tool", runtime: { binary: { entrypoint: "bin/sh-tool" } } },
      }),
    );
    await installExecuta(request("/b.tar.gz"), { home, platform: PLATFORM, env: {} });
    expect(readFileSync(entry, "utf8")).toContain("1.0.0-rebuilt");
    expect(toolEntries(home, TOOL)).toEqual(["current", "v1.0.0"]);

    // A commit that fails after the rename (bin/ is a file, so the shim cannot be written):
    // the replaced folder comes back and current still points at it.
    const binDir = join(home, "bin");
    execFileSync("rm", ["-rf", binDir]);
    writeFileSync(binDir, "not a folder");
    await expect(
      installExecuta(request("/a.tar.gz"), { home, platform: PLATFORM, env: {} }),
    ).rejects.toThrow();
    expect(readFileSync(entry, "utf8")).toContain("1.0.0-rebuilt");
    expect(toolEntries(home, TOOL)).toEqual(["current", "v1.0.0"]);
    expect(currentOf(home, TOOL)).toBe("v1.0.0");
    // A new version failing the same way leaves no folder for it.
    server.serve("/c.tar.gz", bundle("2.0.0"));
    await expect(
      installExecuta(request("/c.tar.gz", "2.0.0"), { home, platform: PLATFORM, env: {} }),
    ).rejects.toThrow();
    expect(toolEntries(home, TOOL)).toEqual(["current", "v1.0.0"]);
    expect(currentOf(home, TOOL)).toBe("v1.0.0");
  });

  it("EXECUTA_INSTALL_V2=0 installs the single entry at bin/{name}, with no version folders", async () => {
    const home = tempHome();
    const server = await fileServer();
    server.serve("/a.tar.gz", bundle("1.0.0"));
    const result = await installExecuta(
      {
        distribution_type: "binary",
        tool_id: TOOL,
        version: "1.0.0",
        binary_urls: { "*": server.url("/a.tar.gz") },
      },
      { home, platform: PLATFORM, env: { EXECUTA_INSTALL_V2: "0" } },
    );
    expect(result.layout).toBe("legacy");
    const file = join(home, "bin", "sh-tool");
    expect(lstatSync(file).isFile()).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o755);
    expect(toolEntries(home, TOOL)).toEqual(["INSTALL.json"]);
    const spec = await installedLaunchSpec(TOOL, { home, env: {} });
    expect(spec.command).toEqual([file]);
    // Switching back to v2 moves the legacy file to legacy-backup/ and puts the shim there.
    const v2 = await installExecuta(
      {
        distribution_type: "binary",
        tool_id: TOOL,
        version: "1.0.0",
        binary_urls: { "*": server.url("/a.tar.gz") },
      },
      { home, platform: PLATFORM, env: {} },
    );
    expect(lstatSync(file).isSymbolicLink()).toBe(true);
    expect(v2.warnings.join(" ")).toMatch(/moved to .*legacy-backup/);
    expect(existsSync(join(home, "legacy-backup"))).toBe(true);
  });
});

describe("installExecuta (local)", () => {
  it("installs a folder with the same pipeline and requires executable_name", async () => {
    const home = tempHome();
    const src = join(tempHome(), "plugin");
    mkdirSync(join(src, "bin"), { recursive: true });
    writeFileSync(join(src, "bin", "dev-tool"), shPlugin("0.0.1"), { mode: 0o755 });
    mkdirSync(join(src, ".git"));
    writeFileSync(join(src, ".git", "HEAD"), "ref");
    await expect(
      installExecuta({ distribution_type: "local", local_path: src }, { home, env: {} }),
    ).rejects.toThrow(/local install needs executable_name/);
    const result = await installExecuta(
      {
        distribution_type: "local",
        local_path: src,
        executable_name: "dev-tool",
        tool_id: "tool-me-dev-tool-000001",
      },
      { home, env: {} },
    );
    expect(result).toMatchObject({
      version: "dev",
      layout: "v2",
      record: { distribution_type: "local", sha256: null, source_path: src, format: "dir" },
    });
    expect(existsSync(join(result.dir, ".git"))).toBe(false);
    expect(readlinkSync(join(home, "bin", "dev-tool"))).toContain("tool-me-dev-tool-000001");
  });

  it("installs a local archive, and refuses package-manager distributions with the command to use", async () => {
    const home = tempHome();
    const archive = join(tempHome(), "plugin.tgz");
    writeFileSync(archive, bundle("0.9.0"));
    const result = await installExecuta(
      { distribution_type: "local", local_path: archive, executable_name: "sh-tool" },
      { home, env: {} },
    );
    expect(result).toMatchObject({
      tool_id: "sh-tool",
      version: "0.9.0",
      record: { format: "tar.gz" },
    });
    await expect(
      installExecuta({ distribution_type: "uv", package_name: "weather-tool" }, { home, env: {} }),
    ).rejects.toThrow(/installs through its package manager \(`uv tool install weather-tool`\)/);
  });

  it("refuses to take over a bin/{name} that starts another tool unless forced", async () => {
    const home = tempHome();
    const archive = join(tempHome(), "plugin.tgz");
    writeFileSync(archive, bundle("0.9.0"));
    const req = (toolId: string) => ({
      distribution_type: "local",
      local_path: archive,
      executable_name: "sh-tool",
      tool_id: toolId,
    });
    await installExecuta(req("tool-a-one-000001"), { home, env: {} });
    await expect(installExecuta(req("tool-b-two-000002"), { home, env: {} })).rejects.toThrow(
      /bin\/sh-tool already starts tool-a-one-000001; choose another executable name, or pass --force/,
    );
    // The refused install left nothing of itself behind.
    expect(toolEntries(home, "tool-b-two-000002")).toEqual([]);
    const forced = await installExecuta(req("tool-b-two-000002"), { home, env: {}, force: true });
    expect(forced.warnings).toContain(
      "bin/sh-tool started tool-a-one-000001; it now starts tool-b-two-000002",
    );
    expect(readlinkSync(join(home, "bin", "sh-tool"))).toContain("tool-b-two-000002");
    const bin = join(tempHome(), "shims");
    const own = await installExecuta(req("tool-c-three-000003"), { home, env: {}, binDir: bin });
    expect(own.shim).toBe(join(bin, "sh-tool"));
    expect(
      execFileSync(own.shim, {
        input: '{"jsonrpc":"2.0","id":1,"method":"describe"}\n',
        encoding: "utf8",
      }),
    ).toContain('"0.9.0"');
  });
});
