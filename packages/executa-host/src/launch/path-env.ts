// PATH-like environment variables: lists of folders that are merged, never replaced, so a
// plugin keeps the user's tools and libraries (T35, L2659–L2672).

/** Variables whose value is a folder list; `buildPluginEnv` merges these instead of replacing. */
export const PATH_LIKE_VARS: readonly string[] = [
  "PATH",
  "LD_LIBRARY_PATH",
  "DYLD_LIBRARY_PATH",
  "PYTHONPATH",
  "NODE_PATH",
];

export function isPathLike(name: string, platform: NodeJS.Platform): boolean {
  const wanted = platform === "win32" ? name.toUpperCase() : name;
  return PATH_LIKE_VARS.includes(wanted);
}

export function pathDelimiter(platform: NodeJS.Platform): string {
  return platform === "win32" ? ";" : ":";
}

/** The dynamic loader's search variable: DYLD_ on macOS, LD_ elsewhere; none on Windows (PATH). */
export function libraryPathVar(platform: NodeJS.Platform): string | undefined {
  if (platform === "darwin") return "DYLD_LIBRARY_PATH";
  if (platform === "win32") return undefined;
  return "LD_LIBRARY_PATH";
}

/** `prefix` folders first, then the inherited ones; duplicates and empty entries dropped. */
export function prependPaths(
  prefix: readonly string[],
  inherited: string | undefined,
  platform: NodeJS.Platform,
): string {
  const delimiter = pathDelimiter(platform);
  const seen = new Set<string>();
  const out: string[] = [];
  for (const entry of [...prefix, ...(inherited ?? "").split(delimiter)]) {
    if (entry === "" || seen.has(entry)) continue;
    seen.add(entry);
    out.push(entry);
  }
  return out.join(delimiter);
}
