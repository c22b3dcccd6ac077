// The sandbox command line, checked without running it: what is bound, in what order the
// wrappers exec each other, and the options that change it.
import { describe, expect, it } from "vitest";
import { DEFAULT_SANDBOX_LIMITS } from "../../src/index.js";
import { sandboxArgv, type SandboxArgvOptions } from "../../src/executor/sandbox-argv.js";
import { segment } from "../../src/executor/sandbox-dirs.js";
import { workspaceCwd } from "../../src/executor/exec-tools.js";

const BASE: SandboxArgvOptions = {
  binaries: {
    bwrap: "/usr/bin/bwrap",
    env: "/usr/bin/env",
    prlimit: "/usr/bin/prlimit",
    setpriv: "/usr/bin/setpriv",
  },
  limits: { ...DEFAULT_SANDBOX_LIMITS, maxProcesses: 32 },
  mounts: { home: "/srv/s/h", tmp: "/srv/s/t", readOnly: ["/opt/plugin"] },
  network: true,
  cwd: "/opt/plugin",
  command: ["/usr/bin/node", "main.mjs"],
};

function pairs(argv: string[], flag: string): string[][] {
  const out: string[][] = [];
  argv.forEach((arg, i) => {
    if (arg === flag) out.push([argv[i + 1]!, argv[i + 2]!]);
  });
  return out;
}

describe("sandboxArgv", () => {
  it("sets the limits, then bubblewrap with its namespaces, private folders and the command last", () => {
    const argv = sandboxArgv(BASE);
    expect(argv.slice(0, 2)).toEqual(["/usr/bin/prlimit", "--nproc=32"]);
    expect(argv).toContain("--die-with-parent");
    expect(argv).toContain("--unshare-pid");
    expect(argv).not.toContain("--unshare-net");
    expect(argv).not.toContain("/usr/bin/setpriv");
    expect(pairs(argv, "--bind")).toEqual([
      ["/srv/s/h", "/home/sandbox"],
      ["/srv/s/t", "/tmp"],
    ]);
    expect(pairs(argv, "--ro-bind")).toEqual([["/opt/plugin", "/opt/plugin"]]);
    expect(pairs(argv, "--ro-bind-try")).toContainEqual(["/usr", "/usr"]);
    // Nothing writable of the host's beyond the two private folders; no whole-root bind.
    expect(argv).not.toContain("--dev-bind");
    expect(argv.slice(-5)).toEqual([
      "--",
      "/usr/bin/env",
      "--default-signal=TERM",
      "/usr/bin/node",
      "main.mjs",
    ]);
  });

  it("drops to runAs through setpriv, and unshares the network when asked", () => {
    const argv = sandboxArgv({ ...BASE, network: false, runAs: { uid: 65534, gid: 65534 } });
    const setpriv = argv.indexOf("/usr/bin/setpriv");
    expect(setpriv).toBeGreaterThan(0);
    expect(argv.slice(setpriv + 1, setpriv + 4)).toEqual([
      "--reuid=65534",
      "--regid=65534",
      "--clear-groups",
    ]);
    expect(setpriv).toBeLessThan(argv.indexOf("/usr/bin/bwrap"));
    expect(argv).toContain("--unshare-net");
  });
});

describe("segment", () => {
  it("keeps ids that flatten alike apart", () => {
    expect(segment("a/b")).not.toBe(segment("a_b"));
    expect(segment("../etc")).toMatch(/^_[A-Za-z0-9._-]*-[0-9a-f]{12}$/);
    expect(segment("../etc")).not.toContain("/");
  });
});

describe("workspaceCwd", () => {
  it("resolves inside /workspace and refuses an escape", () => {
    expect(workspaceCwd(undefined)).toBe("/workspace");
    expect(workspaceCwd("src/app")).toBe("/workspace/src/app");
    expect(workspaceCwd("/workspace/x")).toBe("/workspace/x");
    expect(() => workspaceCwd("/etc")).toThrow(
      'cwd "/etc" leaves the workspace; give a folder inside /workspace',
    );
  });
});
