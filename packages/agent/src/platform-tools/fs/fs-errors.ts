// File-system errors in words the model can act on: the errno becomes a tool error code and a
// sentence naming the workspace path (never the server's absolute path).
import { PlatformToolError, type PlatformToolErrorCode } from "../platform-tool.js";

const ERRNO: Readonly<Record<string, [PlatformToolErrorCode, (p: string) => string]>> = {
  ENOENT: ["NOT_FOUND", (p) => `${p} does not exist in the workspace`],
  EEXIST: ["ALREADY_EXISTS", (p) => `${p} already exists; pass overwrite: true to replace it`],
  ENOTDIR: ["NOT_A_DIRECTORY", (p) => `a part of ${p} is a file, not a directory`],
  EISDIR: ["NOT_A_FILE", (p) => `${p} is a directory, not a file`],
  ENOTEMPTY: [
    "DIRECTORY_NOT_EMPTY",
    (p) =>
      `${p} is a directory that is not empty; pass recursive: true to delete it with its contents`,
  ],
  ELOOP: ["PATH_OUTSIDE_WORKSPACE", (p) => `${p} is a symbolic link; it is not followed`],
  EACCES: ["INVALID_ARGUMENT", (p) => `${p} is not accessible`],
  EPERM: ["INVALID_ARGUMENT", (p) => `${p} may not be changed`],
};

/** Runs `op`, turning errno failures into `PlatformToolError`s about `shown`. */
export async function fsCall<T>(shown: string, op: () => Promise<T>): Promise<T> {
  try {
    return await op();
  } catch (error) {
    if (error instanceof PlatformToolError) throw error;
    const known = ERRNO[(error as NodeJS.ErrnoException).code ?? ""];
    if (known === undefined) throw error;
    throw new PlatformToolError(known[0], known[1](shown), { cause: error });
  }
}
