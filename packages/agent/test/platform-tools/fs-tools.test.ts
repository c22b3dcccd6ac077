import { mkdir, readFile, stat, symlink, truncate, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  FS_FILE_MAX_BYTES,
  FS_LIST_MAX_ENTRIES,
  FS_READ_MAX_BYTES,
  FS_WRITE_MAX_BYTES,
} from "../../src/platform-tools/fs/fs-limits.js";
import { fsTools } from "../../src/platform-tools/fs/fs-tools.js";
import { openWorkspace } from "../../src/platform-tools/fs/workspace.js";
import { context, fails, ok, tempDir } from "./helpers.js";

async function setup() {
  const root = await tempDir("ws");
  const tools = fsTools({ workspaceRoot: root });
  const home = await openWorkspace(root, "u_alice");
  return { root, tools, home };
}

describe("fs_* tools", () => {
  it("writes, reads, appends, lists and inspects files in the user's workspace", async () => {
    const { tools, home } = await setup();
    await ok(tools, "fs_write_file", { path: "notes/todo.md", content: "one\ntwo\n" });
    await ok(tools, "fs_write_file", { path: "notes/todo.md", content: "three", mode: "append" });
    expect(await readFile(path.join(home, "notes/todo.md"), "utf8")).toBe("one\ntwo\nthree");
    const read = await ok(tools, "fs_read_file", { path: "notes/todo.md" });
    expect(read).toMatchObject({ encoding: "text", content: "one\ntwo\nthree", truncated: false });
    const lines = await ok(tools, "fs_read_file", {
      path: "notes/todo.md",
      start_line: 2,
      end_line: 3,
    });
    expect(lines).toMatchObject({
      content: "two\nthree",
      start_line: 2,
      end_line: 3,
      total_lines: 3,
    });
    const listed = await ok(tools, "fs_list_directory", { path: ".", recursive: true });
    expect(
      (listed.entries as { path: string; type: string }[]).map((e) => [e.path, e.type]),
    ).toEqual([
      ["notes", "directory"],
      ["notes/todo.md", "file"],
    ]);
    const info = await ok(tools, "fs_get_info", { path: "notes/todo.md" });
    expect(info).toMatchObject({ type: "file", size: 13 });
    expect(await ok(tools, "fs_exists", { path: "notes/missing" })).toEqual({
      path: "notes/missing",
      exists: false,
    });
  });

  it("returns binary files as base64", async () => {
    const { tools, home } = await setup();
    await writeFile(path.join(home, "blob.bin"), Buffer.from([0, 1, 2, 255]));
    expect(await ok(tools, "fs_read_file", { path: "blob.bin" })).toMatchObject({
      encoding: "base64",
      content: "AAEC/w==",
    });
    expect(
      (await fails(tools, "fs_read_file", { path: "blob.bin", encoding: "text" })).message,
    ).toMatch(/base64/);
  });

  it("keeps each user in their own workspace", async () => {
    const { tools } = await setup();
    await ok(tools, "fs_write_file", { path: "secret.txt", content: "alice" });
    const bob = context("u_bob");
    expect(await ok(tools, "fs_exists", { path: "secret.txt" }, bob)).toMatchObject({
      exists: false,
    });
    const escape = await fails(tools, "fs_read_file", { path: "../u_alice/secret.txt" }, bob);
    expect(escape.code).toBe("PATH_OUTSIDE_WORKSPACE");
  });

  it("refuses paths that climb out with ..", async () => {
    const { tools } = await setup();
    for (const p of ["..", "../x", "a/../../x", "notes/../../../etc/passwd"]) {
      const error = await fails(tools, "fs_read_file", { path: p });
      expect(error.code, p).toBe("PATH_OUTSIDE_WORKSPACE");
      expect(error.message).toMatch(/below its root/);
    }
    expect((await fails(tools, "fs_write_file", { path: "../evil", content: "x" })).code).toBe(
      "PATH_OUTSIDE_WORKSPACE",
    );
  });

  it("refuses absolute paths, home paths and NUL bytes", async () => {
    const { tools } = await setup();
    for (const p of ["/etc/passwd", "~/x", "C:\\windows"]) {
      const error = await fails(tools, "fs_read_file", { path: p });
      expect(error.code, p).toBe("PATH_INVALID");
    }
    const nul = await fails(tools, "fs_write_file", { path: "a\0b", content: "x" });
    expect(nul).toMatchObject({ code: "PATH_INVALID" });
    expect(nul.message).toMatch(/NUL/);
  });

  it("refuses symlinks that lead out of the workspace, for reads, writes and copies", async () => {
    const { tools, home, root } = await setup();
    const outside = path.join(root, "outside");
    await mkdir(outside);
    await writeFile(path.join(outside, "server-secret"), "db password");
    await symlink(outside, path.join(home, "door"));
    await symlink(path.join(outside, "server-secret"), path.join(home, "file-link"));
    await symlink(path.join(outside, "not-yet"), path.join(home, "dangling"));
    for (const p of ["door/server-secret", "file-link"]) {
      expect((await fails(tools, "fs_read_file", { path: p })).code, p).toBe(
        "PATH_OUTSIDE_WORKSPACE",
      );
    }
    expect((await fails(tools, "fs_write_file", { path: "door/new", content: "x" })).code).toBe(
      "PATH_OUTSIDE_WORKSPACE",
    );
    // A dangling link would let a write create a file wherever it points.
    expect((await fails(tools, "fs_write_file", { path: "dangling", content: "x" })).code).toBe(
      "PATH_OUTSIDE_WORKSPACE",
    );
    await expect(stat(path.join(outside, "not-yet"))).rejects.toThrow(/ENOENT/);
    expect((await fails(tools, "fs_list_directory", { path: "door" })).code).toBe(
      "PATH_OUTSIDE_WORKSPACE",
    );
    expect((await fails(tools, "fs_delete_file", { path: "door/server-secret" })).code).toBe(
      "PATH_OUTSIDE_WORKSPACE",
    );
    // A tree holding a link is not copied: the copy could point anywhere.
    await mkdir(path.join(home, "tree"));
    await symlink("../file-link", path.join(home, "tree/link"));
    expect(
      (await fails(tools, "fs_copy_file", { source: "tree", destination: "tree2" })).message,
    ).toMatch(/symbolic link/);
    expect(await readFile(path.join(outside, "server-secret"), "utf8")).toBe("db password");
  });

  it("follows symlinks that stay inside the workspace", async () => {
    const { tools, home } = await setup();
    await ok(tools, "fs_write_file", { path: "real/a.txt", content: "inside" });
    await symlink(path.join(home, "real"), path.join(home, "alias"));
    expect(await ok(tools, "fs_read_file", { path: "alias/a.txt" })).toMatchObject({
      content: "inside",
    });
  });

  it("caps what it reads and writes", async () => {
    const { tools, home } = await setup();
    const big = path.join(home, "big.txt");
    await writeFile(big, "x".repeat(FS_READ_MAX_BYTES + 10));
    const read = await ok(tools, "fs_read_file", { path: "big.txt" });
    expect((read.content as string).length).toBe(FS_READ_MAX_BYTES);
    expect(read.truncated).toMatch(/start_line/);
    await truncate(big, FS_FILE_MAX_BYTES + 1);
    const huge = await fails(tools, "fs_read_file", { path: "big.txt" });
    expect(huge.code).toBe("TOO_LARGE");
    expect(huge.message).toMatch(String(FS_FILE_MAX_BYTES));
    const tooMuch = await fails(tools, "fs_write_file", {
      path: "w.txt",
      content: "y".repeat(FS_WRITE_MAX_BYTES + 1),
    });
    expect(tooMuch.code).toBe("TOO_LARGE");
  });

  it("copies, moves and deletes, refusing to clobber or to touch the root", async () => {
    const { tools, home } = await setup();
    await ok(tools, "fs_write_file", { path: "src/a.txt", content: "a" });
    await ok(tools, "fs_write_file", { path: "src/sub/b.txt", content: "b" });
    expect(await ok(tools, "fs_copy_file", { source: "src", destination: "copy" })).toMatchObject({
      bytes_copied: 2,
    });
    expect(await readFile(path.join(home, "copy/sub/b.txt"), "utf8")).toBe("b");
    expect((await fails(tools, "fs_copy_file", { source: "src", destination: "copy" })).code).toBe(
      "ALREADY_EXISTS",
    );
    expect(
      (await fails(tools, "fs_copy_file", { source: "src", destination: "src/inner" })).code,
    ).toBe("INVALID_ARGUMENT");
    await ok(tools, "fs_move_file", { source: "copy", destination: "moved" });
    expect(await ok(tools, "fs_exists", { path: "copy" })).toMatchObject({ exists: false });
    expect((await fails(tools, "fs_delete_file", { path: "moved" })).code).toBe(
      "DIRECTORY_NOT_EMPTY",
    );
    await ok(tools, "fs_delete_file", { path: "moved", recursive: true });
    expect(await ok(tools, "fs_exists", { path: "moved" })).toMatchObject({ exists: false });
    expect((await fails(tools, "fs_delete_file", { path: ".", recursive: true })).message).toMatch(
      /root/,
    );
    expect(await ok(tools, "fs_mkdir", { path: "d/e/f" })).toMatchObject({ created: true });
  });

  it("stops a listing at its entry cap and says how to narrow it", async () => {
    const { tools, home } = await setup();
    await mkdir(path.join(home, "many"));
    for (let i = 0; i <= FS_LIST_MAX_ENTRIES; i++) {
      await writeFile(path.join(home, "many", `f${String(i).padStart(4, "0")}.txt`), "");
    }
    const listed = await ok(tools, "fs_list_directory", { path: "many" });
    expect((listed.entries as unknown[]).length).toBe(FS_LIST_MAX_ENTRIES);
    expect(listed.truncated).toMatch(/narrow the path or the pattern/);
    const narrowed = await ok(tools, "fs_list_directory", { path: "many", pattern: "f000?.txt" });
    expect((narrowed.entries as unknown[]).length).toBe(10);
    expect(narrowed.truncated).toBe(false);
  });

  it("finds files by glob and reports bad arguments by field", async () => {
    const { tools } = await setup();
    for (const p of ["a.md", "docs/b.md", "docs/deep/c.md", "docs/d.txt"]) {
      await ok(tools, "fs_write_file", { path: p, content: p });
    }
    const byName = await ok(tools, "fs_search", { pattern: "*.md" });
    expect((byName.entries as { path: string }[]).map((e) => e.path).sort()).toEqual([
      "a.md",
      "docs/b.md",
      "docs/deep/c.md",
    ]);
    const byPath = await ok(tools, "fs_search", { pattern: "**/deep/*.{md,txt}", path: "docs" });
    expect((byPath.entries as { path: string }[]).map((e) => e.path)).toEqual(["docs/deep/c.md"]);
    const bad = await fails(tools, "fs_write_file", { path: 3 });
    expect(bad.code).toBe("INVALID_ARGUMENT");
    expect(bad.message).toMatch(/path/);
  });
});
