// The read-only fs_* tools (R96): fs_read_file, fs_list_directory, fs_search, fs_get_info,
// fs_exists. Each resolves its paths in the calling user's workspace (workspace.ts).
import { constants, type Stats } from "node:fs";
import { lstat, open } from "node:fs/promises";
import { z } from "zod";
import type { AgentTool } from "../../turns/types.js";
import { platformTool, PlatformToolError } from "../platform-tool.js";
import { fsCall } from "./fs-errors.js";
import {
  FS_FILE_MAX_BYTES,
  FS_LIST_MAX_ENTRIES,
  FS_READ_MAX_BYTES,
  FS_TOOL_TIMEOUT_MS,
  FS_WALK_MAX_DEPTH,
  FS_WALK_MAX_VISITED,
} from "./fs-limits.js";
import { GLOB_MAX_CHARS, globMatcher } from "./glob.js";
import { entryType, walk, type WalkEntry } from "./walk.js";
import { resolveInWorkspace } from "./workspace.js";
import { openUserWorkspace, type WorkspaceAccess } from "./workspace-access.js";

export type FsToolsOptions = WorkspaceAccess;

export const FS_FAMILY = "fs";

const pathField = z.string().describe("Path relative to the workspace root, e.g. notes/todo.md");
const globField = z.string().max(GLOB_MAX_CHARS);

async function statOf(shown: string, absolute: string): Promise<Stats> {
  return fsCall(shown, () => lstat(absolute));
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Text when the bytes are UTF-8 without NUL, else base64: what the model can read back. */
function encodeContent(bytes: Buffer, wanted: "auto" | "text" | "base64") {
  if (wanted !== "base64" && !bytes.includes(0)) {
    try {
      return { encoding: "text" as const, content: utf8.decode(bytes) };
    } catch {
      if (wanted === "text") {
        throw new PlatformToolError(
          "INVALID_ARGUMENT",
          "the file is not UTF-8 text; read it with encoding: 'base64'",
        );
      }
    }
  } else if (wanted === "text") {
    throw new PlatformToolError(
      "INVALID_ARGUMENT",
      "the file holds NUL bytes (binary); read it with encoding: 'base64'",
    );
  }
  return { encoding: "base64" as const, content: bytes.toString("base64") };
}

function readFileTool(options: FsToolsOptions): AgentTool {
  return platformTool({
    name: "fs_read_file",
    family: FS_FAMILY,
    timeoutMs: FS_TOOL_TIMEOUT_MS,
    description:
      "Read a file in the user's workspace: UTF-8 text, or base64 for binary files. " +
      `Pass start_line/end_line (1-based, inclusive) for part of a text file. At most ${FS_READ_MAX_BYTES} bytes are returned; 'truncated' says when there is more.`,
    input: z.object({
      path: pathField,
      encoding: z.enum(["auto", "text", "base64"]).default("auto"),
      start_line: z.int().min(1).optional(),
      end_line: z.int().min(1).optional(),
    }),
    async run(input, ctx) {
      const root = await openUserWorkspace(options, ctx.userId);
      const target = await resolveInWorkspace(root, input.path);
      // O_NOFOLLOW: a symlink swapped in after the check is refused, not followed.
      const handle = await fsCall(target.shown, () =>
        open(target.absolute, constants.O_RDONLY | constants.O_NOFOLLOW),
      );
      try {
        const stats = await handle.stat();
        if (stats.isDirectory()) {
          throw new PlatformToolError(
            "NOT_A_FILE",
            `${target.shown} is a directory; list it with fs_list_directory`,
          );
        }
        if (stats.size > FS_FILE_MAX_BYTES) {
          throw new PlatformToolError(
            "TOO_LARGE",
            `${target.shown} is ${stats.size} bytes; files over ${FS_FILE_MAX_BYTES} bytes are not read`,
          );
        }
        const ranged = input.start_line !== undefined || input.end_line !== undefined;
        if (ranged && input.encoding === "base64") {
          throw new PlatformToolError(
            "INVALID_ARGUMENT",
            "start_line/end_line select lines of a text file; drop them to read base64",
          );
        }
        if (!ranged) {
          const length = Math.min(stats.size, FS_READ_MAX_BYTES);
          const buffer = Buffer.alloc(length);
          const { bytesRead } = await handle.read(buffer, 0, length, 0);
          const bytes = buffer.subarray(0, bytesRead);
          const truncated = stats.size > FS_READ_MAX_BYTES;
          // A cut can split a UTF-8 sequence: drop the partial character at the end.
          const clean = truncated ? trimPartialUtf8(bytes) : bytes;
          return {
            path: target.shown,
            size: stats.size,
            ...encodeContent(clean, input.encoding),
            truncated: truncated
              ? `only the first ${clean.length} of ${stats.size} bytes; read further with start_line/end_line`
              : false,
          };
        }
        const text = encodeContent(await handle.readFile(), "text").content;
        const lines = text.split("\n");
        const start = input.start_line ?? 1;
        const end = Math.min(input.end_line ?? lines.length, lines.length);
        if (end < start) {
          throw new PlatformToolError(
            "INVALID_ARGUMENT",
            `end_line ${end} is before start_line ${start}; the file has ${lines.length} lines`,
          );
        }
        let content = "";
        let last = start - 1;
        for (let i = start; i <= end; i++) {
          const line = lines[i - 1] as string;
          if (Buffer.byteLength(content) + Buffer.byteLength(line) + 1 > FS_READ_MAX_BYTES) break;
          content += (i === start ? "" : "\n") + line;
          last = i;
        }
        return {
          path: target.shown,
          size: stats.size,
          encoding: "text",
          content,
          start_line: start,
          end_line: last,
          total_lines: lines.length,
          truncated:
            last < end
              ? `stopped at line ${last} (${FS_READ_MAX_BYTES} bytes); continue with start_line: ${last + 1}`
              : false,
        };
      } finally {
        await handle.close();
      }
    },
  });
}

function trimPartialUtf8(bytes: Buffer): Buffer {
  let end = bytes.length;
  // Step back over continuation bytes to the lead byte; drop it if its sequence is incomplete.
  let i = end - 1;
  while (i >= 0 && i > end - 4 && ((bytes[i] as number) & 0xc0) === 0x80) i--;
  if (i < 0) return bytes;
  const lead = bytes[i] as number;
  const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  if (end - i < need) end = i;
  return bytes.subarray(0, end);
}

async function listing(
  options: FsToolsOptions,
  userId: string,
  rawPath: string,
  recursive: boolean,
  pattern: string | undefined,
  dirsOnlyIfNoPattern: boolean,
) {
  const root = await openUserWorkspace(options, userId);
  const target = await resolveInWorkspace(root, rawPath);
  const stats = await statOf(target.shown, target.absolute);
  if (!stats.isDirectory()) {
    throw new PlatformToolError("NOT_A_DIRECTORY", `${target.shown} is not a directory`);
  }
  const matches = pattern === undefined ? undefined : globMatcher(pattern);
  const entries: WalkEntry[] = [];
  const cut = await walk(root, target.absolute, {
    recursive,
    maxDepth: FS_WALK_MAX_DEPTH,
    maxVisited: FS_WALK_MAX_VISITED,
    visit(entry) {
      const relative =
        target.shown === "." ? entry.path : entry.path.slice(target.shown.length + 1);
      if (matches !== undefined && !matches(relative, entry.name)) return true;
      if (dirsOnlyIfNoPattern && matches === undefined) return true;
      entries.push(entry);
      return entries.length < FS_LIST_MAX_ENTRIES;
    },
  });
  return {
    path: target.shown,
    entries,
    truncated: cut
      ? `stopped after ${entries.length} entries (caps: ${FS_LIST_MAX_ENTRIES} returned, ${FS_WALK_MAX_VISITED} visited, depth ${FS_WALK_MAX_DEPTH}); narrow the path or the pattern`
      : false,
  };
}

function listDirectoryTool(options: FsToolsOptions): AgentTool {
  return platformTool({
    name: "fs_list_directory",
    family: FS_FAMILY,
    timeoutMs: FS_TOOL_TIMEOUT_MS,
    description:
      "List a directory of the user's workspace ('.' for its root): name, path, type, size, modified. " +
      "Optional glob filter (e.g. '*.md', 'src/**/*.ts') and recursive listing.",
    input: z.object({
      path: pathField.default("."),
      pattern: globField.optional(),
      recursive: z.boolean().default(false),
    }),
    run: (input, ctx) =>
      listing(options, ctx.userId, input.path, input.recursive, input.pattern, false),
  });
}

function searchTool(options: FsToolsOptions): AgentTool {
  return platformTool({
    name: "fs_search",
    family: FS_FAMILY,
    timeoutMs: FS_TOOL_TIMEOUT_MS,
    description:
      "Find files and directories by name or glob pattern anywhere below a directory of the " +
      "user's workspace (e.g. pattern '*.csv', or 'reports/**/2024-*').",
    input: z.object({ pattern: globField.min(1), path: pathField.default(".") }),
    run: (input, ctx) => listing(options, ctx.userId, input.path, true, input.pattern, true),
  });
}

function getInfoTool(options: FsToolsOptions): AgentTool {
  return platformTool({
    name: "fs_get_info",
    family: FS_FAMILY,
    timeoutMs: FS_TOOL_TIMEOUT_MS,
    description: "Metadata of a path in the user's workspace: type, size in bytes, modified time.",
    input: z.object({ path: pathField }),
    async run(input, ctx) {
      const root = await openUserWorkspace(options, ctx.userId);
      const target = await resolveInWorkspace(root, input.path);
      const stats = await statOf(target.shown, target.absolute);
      return {
        path: target.shown,
        type: entryType(stats),
        size: stats.size,
        modified: stats.mtime.toISOString(),
        created: stats.birthtime.toISOString(),
      };
    },
  });
}

function existsTool(options: FsToolsOptions): AgentTool {
  return platformTool({
    name: "fs_exists",
    family: FS_FAMILY,
    timeoutMs: FS_TOOL_TIMEOUT_MS,
    description: "Whether a path exists in the user's workspace, and what it is.",
    input: z.object({ path: pathField }),
    async run(input, ctx) {
      const root = await openUserWorkspace(options, ctx.userId);
      const target = await resolveInWorkspace(root, input.path);
      const stats = await lstat(target.absolute).catch(() => undefined);
      return stats === undefined
        ? { path: target.shown, exists: false }
        : { path: target.shown, exists: true, type: entryType(stats) };
    },
  });
}

export function fsReadTools(options: FsToolsOptions): AgentTool[] {
  return [
    readFileTool(options),
    listDirectoryTool(options),
    searchTool(options),
    getInfoTool(options),
    existsTool(options),
  ];
}
