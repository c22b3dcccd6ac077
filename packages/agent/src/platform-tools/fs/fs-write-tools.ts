// The fs_* tools with side effects (R96): fs_write_file, fs_mkdir, fs_copy_file, fs_move_file
// and the destructive fs_delete_file. Writes never follow a symlink at the target (O_NOFOLLOW),
// copies refuse trees that hold symlinks (a copied link could point anywhere), and the
// workspace root itself cannot be moved or deleted.
import { constants } from "node:fs";
import { cp, lstat, mkdir, open, rename, rm, rmdir } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import type { AgentTool } from "../../turns/types.js";
import { platformTool, PlatformToolError } from "../platform-tool.js";
import { FS_FAMILY, type FsToolsOptions } from "./fs-read-tools.js";
import { fsCall } from "./fs-errors.js";
import {
  FS_APPEND_RESULT_MAX_BYTES,
  FS_COPY_MAX_BYTES,
  FS_COPY_MAX_ENTRIES,
  FS_TOOL_TIMEOUT_MS,
  FS_WALK_MAX_DEPTH,
  FS_WRITE_MAX_BYTES,
} from "./fs-limits.js";
import { walk } from "./walk.js";
import { resolveInWorkspace, type ResolvedPath } from "./workspace.js";
import { handOver, openUserWorkspace } from "./workspace-access.js";

const pathField = z.string().describe("Path relative to the workspace root, e.g. notes/todo.md");

function notRoot(target: ResolvedPath, what: string): void {
  if (target.shown === ".") {
    throw new PlatformToolError("INVALID_ARGUMENT", `the workspace root itself cannot be ${what}`);
  }
}

async function exists(absolute: string): Promise<boolean> {
  return lstat(absolute).then(
    () => true,
    () => false,
  );
}

function writeFileTool(options: FsToolsOptions): AgentTool {
  return platformTool({
    name: "fs_write_file",
    family: FS_FAMILY,
    timeoutMs: FS_TOOL_TIMEOUT_MS,
    description:
      "Write (or, with mode 'append', append) content to a file in the user's workspace, creating " +
      `parent directories. Content is UTF-8 text or base64; at most ${FS_WRITE_MAX_BYTES} bytes per call. REAL side effects.`,
    input: z.object({
      path: pathField,
      content: z.string(),
      encoding: z.enum(["text", "base64"]).default("text"),
      mode: z.enum(["overwrite", "append"]).default("overwrite"),
    }),
    async run(input, ctx) {
      const root = await openUserWorkspace(options, ctx.userId);
      const target = await resolveInWorkspace(root, input.path);
      notRoot(target, "written");
      const bytes = Buffer.from(input.content, input.encoding === "base64" ? "base64" : "utf8");
      if (bytes.length > FS_WRITE_MAX_BYTES) {
        throw new PlatformToolError(
          "TOO_LARGE",
          `the content is ${bytes.length} bytes; one call writes at most ${FS_WRITE_MAX_BYTES} (append the rest in further calls)`,
        );
      }
      await fsCall(target.shown, () =>
        mkdir(path.dirname(target.absolute), { recursive: true, mode: 0o700 }),
      );
      const flags =
        constants.O_WRONLY |
        constants.O_CREAT |
        constants.O_NOFOLLOW |
        (input.mode === "append" ? constants.O_APPEND : constants.O_TRUNC);
      const handle = await fsCall(target.shown, () => open(target.absolute, flags, 0o600));
      try {
        const before = (await handle.stat()).size;
        if (input.mode === "append" && before + bytes.length > FS_APPEND_RESULT_MAX_BYTES) {
          throw new PlatformToolError(
            "TOO_LARGE",
            `${target.shown} would grow to ${before + bytes.length} bytes; files are capped at ${FS_APPEND_RESULT_MAX_BYTES}`,
          );
        }
        await handle.write(bytes);
        return {
          path: target.shown,
          bytes_written: bytes.length,
          size: input.mode === "append" ? before + bytes.length : bytes.length,
        };
      } finally {
        await handle.close();
        await handOver(options, root, target.absolute);
      }
    },
  });
}

function mkdirTool(options: FsToolsOptions): AgentTool {
  return platformTool({
    name: "fs_mkdir",
    family: FS_FAMILY,
    timeoutMs: FS_TOOL_TIMEOUT_MS,
    description: "Create a directory (and its parents) in the user's workspace.",
    input: z.object({ path: pathField }),
    async run(input, ctx) {
      const root = await openUserWorkspace(options, ctx.userId);
      const target = await resolveInWorkspace(root, input.path);
      const created = await fsCall(target.shown, () =>
        mkdir(target.absolute, { recursive: true, mode: 0o700 }),
      );
      const stats = await lstat(target.absolute);
      if (!stats.isDirectory()) {
        throw new PlatformToolError("ALREADY_EXISTS", `${target.shown} exists and is a file`);
      }
      await handOver(options, root, target.absolute);
      return { path: target.shown, created: created !== undefined };
    },
  });
}

/** The size and entry count of a copy source; refuses symlinks and anything past the caps. */
async function measureCopy(root: string, source: ResolvedPath): Promise<number> {
  const stats = await fsCall(source.shown, () => lstat(source.absolute));
  if (!stats.isDirectory()) return stats.size;
  let bytes = 0;
  let entries = 0;
  let problem: string | undefined;
  const cut = await walk(root, source.absolute, {
    recursive: true,
    maxDepth: FS_WALK_MAX_DEPTH,
    maxVisited: FS_COPY_MAX_ENTRIES + 1,
    visit(entry) {
      entries++;
      bytes += entry.size;
      if (entry.type === "symlink")
        problem = `${entry.path} is a symbolic link; links are not copied`;
      else if (bytes > FS_COPY_MAX_BYTES) problem = `the copy passes ${FS_COPY_MAX_BYTES} bytes`;
      return problem === undefined;
    },
  });
  if (problem !== undefined) throw new PlatformToolError("INVALID_ARGUMENT", problem);
  if (cut || entries > FS_COPY_MAX_ENTRIES) {
    throw new PlatformToolError(
      "TOO_LARGE",
      `${source.shown} holds more than ${FS_COPY_MAX_ENTRIES} entries (or deeper than ${FS_WALK_MAX_DEPTH} levels); copy smaller parts`,
    );
  }
  return bytes;
}

const transferInput = z.object({
  source: pathField,
  destination: pathField,
  overwrite: z.boolean().default(false),
});

async function transferTargets(
  options: FsToolsOptions,
  userId: string,
  input: z.output<typeof transferInput>,
) {
  const root = await openUserWorkspace(options, userId);
  const source = await resolveInWorkspace(root, input.source);
  const destination = await resolveInWorkspace(root, input.destination);
  notRoot(source, "copied or moved");
  notRoot(destination, "replaced");
  await fsCall(source.shown, () => lstat(source.absolute));
  if (
    destination.absolute === source.absolute ||
    destination.absolute.startsWith(source.absolute + path.sep)
  ) {
    throw new PlatformToolError(
      "INVALID_ARGUMENT",
      `${destination.shown} is ${source.shown} or inside it; pick a destination elsewhere`,
    );
  }
  if (!input.overwrite && (await exists(destination.absolute))) {
    throw new PlatformToolError(
      "ALREADY_EXISTS",
      `${destination.shown} already exists; pass overwrite: true to replace it`,
    );
  }
  return { root, source, destination };
}

function copyTool(options: FsToolsOptions): AgentTool {
  return platformTool({
    name: "fs_copy_file",
    family: FS_FAMILY,
    timeoutMs: FS_TOOL_TIMEOUT_MS,
    description: `Copy a file or a directory tree within the user's workspace (at most ${FS_COPY_MAX_BYTES} bytes, ${FS_COPY_MAX_ENTRIES} entries).`,
    input: transferInput,
    async run(input, ctx) {
      const { root, source, destination } = await transferTargets(options, ctx.userId, input);
      const bytes = await measureCopy(root, source);
      await fsCall(destination.shown, () =>
        mkdir(path.dirname(destination.absolute), { recursive: true, mode: 0o700 }),
      );
      if (input.overwrite) await rm(destination.absolute, { recursive: true, force: true });
      await fsCall(source.shown, () =>
        cp(source.absolute, destination.absolute, {
          recursive: true,
          errorOnExist: true,
          force: false,
          // A link created between the measure and the copy is refused here too.
          filter: async (from) => !(await lstat(from)).isSymbolicLink(),
        }),
      );
      await handOver(options, root, destination.absolute, { tree: true });
      return { source: source.shown, destination: destination.shown, bytes_copied: bytes };
    },
  });
}

function moveTool(options: FsToolsOptions): AgentTool {
  return platformTool({
    name: "fs_move_file",
    family: FS_FAMILY,
    timeoutMs: FS_TOOL_TIMEOUT_MS,
    description: "Move or rename a file or directory within the user's workspace.",
    input: transferInput,
    async run(input, ctx) {
      const { root, source, destination } = await transferTargets(options, ctx.userId, input);
      await fsCall(destination.shown, () =>
        mkdir(path.dirname(destination.absolute), { recursive: true, mode: 0o700 }),
      );
      if (input.overwrite) await rm(destination.absolute, { recursive: true, force: true });
      await fsCall(source.shown, () => rename(source.absolute, destination.absolute));
      await handOver(options, root, destination.absolute);
      return { source: source.shown, destination: destination.shown };
    },
  });
}

function deleteTool(options: FsToolsOptions): AgentTool {
  return platformTool({
    name: "fs_delete_file",
    family: FS_FAMILY,
    timeoutMs: FS_TOOL_TIMEOUT_MS,
    description:
      "Delete a file, or a directory (a non-empty one only with recursive: true), in the user's workspace. Destructive.",
    input: z.object({ path: pathField, recursive: z.boolean().default(false) }),
    async run(input, ctx) {
      const root = await openUserWorkspace(options, ctx.userId);
      const target = await resolveInWorkspace(root, input.path);
      notRoot(target, "deleted");
      const stats = await fsCall(target.shown, () => lstat(target.absolute));
      await fsCall(target.shown, () =>
        stats.isDirectory() && !input.recursive
          ? rmdir(target.absolute)
          : rm(target.absolute, { recursive: input.recursive }),
      );
      return { path: target.shown, deleted: true };
    },
  });
}

export function fsWriteTools(options: FsToolsOptions): AgentTool[] {
  return [
    writeFileTool(options),
    mkdirTool(options),
    copyTool(options),
    moveTool(options),
    deleteTool(options),
  ];
}
