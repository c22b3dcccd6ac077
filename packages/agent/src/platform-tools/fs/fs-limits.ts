// The caps of the fs_* tools. Every answer the model gets is bounded (it is prompt tokens), and
// every walk is bounded (a workspace can hold a million files).

/** Bytes of file content one fs_read_file returns. */
export const FS_READ_MAX_BYTES = 1024 * 1024;
/** Files larger than this are not read at all, not even a line range. */
export const FS_FILE_MAX_BYTES = 64 * 1024 * 1024;
/** Bytes of content one fs_write_file may carry. */
export const FS_WRITE_MAX_BYTES = 1024 * 1024;
/** Size a file may reach by appending. */
export const FS_APPEND_RESULT_MAX_BYTES = 16 * 1024 * 1024;
/** Entries one listing or search returns. */
export const FS_LIST_MAX_ENTRIES = 1000;
/** Entries a recursive walk looks at before it stops and says so. */
export const FS_WALK_MAX_VISITED = 20_000;
/** Levels below the starting directory a recursive walk descends. */
export const FS_WALK_MAX_DEPTH = 16;
/** Total bytes and entries one fs_copy_file may copy. */
export const FS_COPY_MAX_BYTES = 64 * 1024 * 1024;
export const FS_COPY_MAX_ENTRIES = 5000;
/** The runner aborts an fs_* call after this long (a walk or a copy of a big tree). */
export const FS_TOOL_TIMEOUT_MS = 30_000;
