// bin-bundle: a multi-file binary layout (spec L2583–L2672). The test sets the environment the
// host must set for an installed bundle (T35) and checks what the launched process saw.

import { execFileSync } from "node:child_process";
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { exampleDir, pluginEnv, REPO_ROOT, startPlugin } from "./example-plugins.js";

const EXAMPLE = "bin-bundle";
const HOME = exampleDir(EXAMPLE);
const TOOL_ID = "tool-examples-bin-bundle-00000001";

interface RuntimeBinary {
  entrypoint: { default: string };
  lib_dirs: string[];
  data_dirs: string[];
  permissions: Record<string, string>;
}

function runtimeBinary(): RuntimeBinary {
  const manifest = JSON.parse(readFileSync(join(HOME, "manifest.json"), "utf8")) as {
    runtime: { binary: RuntimeBinary };
  };
  return manifest.runtime.binary;
}

/** What the host sets before launching an installed bundle (T35). */
function installedEnv(home: string): NodeJS.ProcessEnv {
  return pluginEnv({
    EXECUTA_HOME: home,
    EXECUTA_DATA: join(home, "data"),
    LD_LIBRARY_PATH: [join(home, "lib"), join(home, "lib64"), process.env.LD_LIBRARY_PATH]
      .filter(Boolean)
      .join(delimiter),
    PATH: [join(home, "share", "bin"), process.env.PATH].join(delimiter),
  });
}

describe("bin-bundle example", () => {
  it("ships manifest.json with runtime.binary and commits the executable bits it declares", () => {
    const binary = runtimeBinary();
    expect(binary.entrypoint.default).toBe("bin/bin-bundle");
    expect(binary.lib_dirs).toEqual(["lib"]);
    expect(binary.data_dirs).toEqual(["data"]);
    const staged = execFileSync("git", ["ls-files", "-s", "--", `examples/executas/${EXAMPLE}`], {
      cwd: REPO_ROOT,
      encoding: "utf8",
    });
    for (const [path, mode] of Object.entries(binary.permissions)) {
      expect(mode).toBe("0o755");
      expect(staged).toMatch(
        new RegExp(`^100755 \\S+ 0\\texamples/executas/${EXAMPLE}/${path}$`, "m"),
      );
      expect(statSync(join(HOME, path)).mode & 0o111).not.toBe(0);
    }
    const executa = JSON.parse(readFileSync(join(HOME, "executa.json"), "utf8")) as Record<
      string,
      unknown
    >;
    expect(executa).toEqual({ tool_id: TOOL_ID, type: "binary" });
  });

  it("sees EXECUTA_HOME, EXECUTA_DATA, lib/ on the library path and share/bin/ on PATH", async () => {
    const plugin = startPlugin(join(HOME, "bin", "bin-bundle"), [], HOME, installedEnv(HOME));
    const frame = await plugin.invoke("env_report", {}, {});
    expect(frame.message.result).toMatchObject({
      success: true,
      data: {
        EXECUTA_HOME: HOME,
        EXECUTA_DATA: join(HOME, "data"),
        lib_dir: join(HOME, "lib"),
        lib_source: "LD_LIBRARY_PATH",
        helper_path: join(HOME, "share", "bin", "bundle-helper"),
        helper_version: "bundle-helper 1.0.0",
        checks: {
          cwd_is_home: true,
          data_is_home_data: true,
          lib_first_on_library_path: true,
          share_bin_first_on_path: true,
          helper_from_bundle: true,
        },
      },
    });
  });

  it("reads bundled data through EXECUTA_DATA and runs its helper through PATH", async () => {
    const plugin = startPlugin(join(HOME, "bin", "bin-bundle"), [], HOME, installedEnv(HOME));
    const quote = await plugin.invoke("quote", { index: 1 }, {});
    expect(quote.message.result).toMatchObject({
      data: { quote: "Make it work, make it right, make it fast." },
    });
    const shout = await plugin.invoke("shout", { text: "multi file" }, {});
    expect(shout.message.result).toMatchObject({ data: { output: "MULTI FILE!" } });
    expect(await plugin.close()).toEqual({ code: 0, signal: null });
  });

  it("still starts through a shim symlink into the install layout without the host's environment", async () => {
    const root = mkdtempSync(join(tmpdir(), "anna-bin-bundle-"));
    onTestFinished(() => rmSync(root, { recursive: true, force: true }));
    const version = join(root, "tools", TOOL_ID, "v0.1.0");
    cpSync(HOME, version, { recursive: true });
    symlinkSync("v0.1.0", join(root, "tools", TOOL_ID, "current"));
    mkdirSync(join(root, "bin"));
    const shim = join(root, "bin", TOOL_ID);
    symlinkSync(join(root, "tools", TOOL_ID, "current", "bin", "bin-bundle"), shim);

    const plugin = startPlugin(
      shim,
      [],
      root,
      pluginEnv({}, ["EXECUTA_HOME", "EXECUTA_DATA", "LD_LIBRARY_PATH"]),
    );
    const report = await plugin.invoke("env_report", {}, {});
    expect(report.message.result).toMatchObject({
      data: {
        EXECUTA_HOME: null,
        lib_source: "launcher",
        lib_dir: join(version, "lib"),
        helper_path: null,
      },
    });
    const quote = await plugin.invoke("quote", {}, {});
    expect(quote.message.result).toEqual({
      success: false,
      error: "EXECUTA_DATA is not set",
      tool: "quote",
    });
  });
});
