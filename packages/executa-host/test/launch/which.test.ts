import { chmod, mkdir, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { createWhich } from "../../src/launch/which.js";
import { tempDir } from "./fixtures.js";

describe("createWhich", () => {
  it("finds executables on PATH in order and skips non-executable files", async () => {
    const root = await tempDir();
    const first = path.join(root, "first");
    const second = path.join(root, "second");
    await mkdir(first);
    await mkdir(second);
    await writeFile(path.join(first, "tool"), "#!/bin/sh\n");
    await chmod(path.join(first, "tool"), 0o644);
    await writeFile(path.join(second, "tool"), "#!/bin/sh\n");
    await chmod(path.join(second, "tool"), 0o755);
    const which = createWhich({ env: { PATH: `${first}:${second}` }, platform: "linux" });
    expect(which("tool")).toBe(path.join(second, "tool"));
    expect(which("absent")).toBeUndefined();
    expect(which(path.join(second, "tool"))).toBe(path.join(second, "tool"));
  });

  it("tries PATHEXT extensions on Windows", async () => {
    const root = await tempDir();
    await writeFile(path.join(root, "uv.EXE"), "");
    const which = createWhich({ env: { Path: root, PATHEXT: ".EXE;.CMD" }, platform: "win32" });
    expect(which("uv")).toBe(path.join(root, "uv.EXE"));
  });
});
