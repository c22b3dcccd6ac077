import { describe, expect, it } from "vitest";
import { buildPluginEnv } from "../../src/launch/plugin-env.js";

const BINARY_SPEC = {
  env: {
    EXECUTA_HOME: "/opt/tool",
    PATH: "/opt/tool/share/bin:/detect-time/bin",
    LD_LIBRARY_PATH: "/opt/tool/lib",
  },
  pathPrepend: { PATH: ["/opt/tool/share/bin"], LD_LIBRARY_PATH: ["/opt/tool/lib"] },
};

describe("buildPluginEnv", () => {
  it("passes the user's environment, HOME included, and adds the spec's", () => {
    const env = buildPluginEnv(
      { env: { EXECUTA_HOME: "/p" } },
      { baseEnv: { HOME: "/home/dev", TOKEN: "t", UNSET: undefined }, platform: "linux" },
    );
    expect(env).toEqual({
      HOME: "/home/dev",
      TOKEN: "t",
      EXECUTA_HOME: "/p",
      ANNA_WORKSPACE_DIR: "/home/dev/anna-workspace",
    });
  });

  it("merges PATH-like variables over the base it is given, not the one detection saw", () => {
    const env = buildPluginEnv(BINARY_SPEC, {
      baseEnv: { PATH: "/usr/bin:/opt/tool/share/bin", LD_LIBRARY_PATH: "/usr/lib" },
      platform: "linux",
    });
    expect(env.PATH).toBe("/opt/tool/share/bin:/usr/bin");
    expect(env.LD_LIBRARY_PATH).toBe("/opt/tool/lib:/usr/lib");
  });

  it("keeps the user's ANNA_WORKSPACE_DIR", () => {
    const env = buildPluginEnv({ env: {} }, { baseEnv: { ANNA_WORKSPACE_DIR: "/w" } });
    expect(env.ANNA_WORKSPACE_DIR).toBe("/w");
  });

  it("lets extras replace plain values and go first in PATH-like ones", () => {
    const env = buildPluginEnv(BINARY_SPEC, {
      baseEnv: { PATH: "/usr/bin", MODE: "a" },
      extra: { MODE: "b", PATH: "/fake/bin", SKIPPED: undefined },
      platform: "linux",
    });
    expect(env.MODE).toBe("b");
    expect(env.PATH).toBe("/fake/bin:/opt/tool/share/bin:/usr/bin");
    expect("SKIPPED" in env).toBe(false);
  });

  it("treats variable names case-insensitively on Windows", () => {
    const env = buildPluginEnv(
      { env: { Path: "C:\\t\\share\\bin;C:\\old" }, pathPrepend: { Path: ["C:\\t\\share\\bin"] } },
      { baseEnv: { Path: "C:\\Windows", USERPROFILE: "C:\\Users\\dev" }, platform: "win32" },
    );
    expect(env.Path).toBe("C:\\t\\share\\bin;C:\\Windows");
    expect(env.PATH).toBeUndefined();
  });
});
