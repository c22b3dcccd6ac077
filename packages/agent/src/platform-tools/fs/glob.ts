// Glob patterns for fs_list_directory and fs_search: `*` and `?` within one path segment, `**`
// across segments, `{a,b}` alternatives, `[abc]` classes. Compiled once to a RegExp that is
// matched against `/`-separated workspace-relative paths (or bare names when the pattern has no
// `/`). Node 20 has no `path.matchesGlob`, hence this small compiler.

/** Longest pattern accepted: keeps the compiled expression small. */
export const GLOB_MAX_CHARS = 256;

function escapeChar(char: string): string {
  return /[\\^$.*+?()[\]{}|/]/.test(char) ? `\\${char}` : char;
}

export function compileGlob(pattern: string): RegExp {
  let out = "";
  let depth = 0;
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i] as string;
    if (char === "*") {
      if (pattern[i + 1] === "*") {
        // `**/` matches zero or more whole segments; a trailing `**` anything below.
        const slash = pattern[i + 2] === "/";
        out += slash ? "(?:[^/]*/)*" : ".*";
        i += slash ? 2 : 1;
      } else out += "[^/]*";
    } else if (char === "?") out += "[^/]";
    else if (char === "[") {
      const end = pattern.indexOf("]", i + 1);
      if (end === -1) out += "\\[";
      else {
        const body = pattern.slice(i + 1, end).replace(/\\/g, "\\\\");
        out += `[${body.startsWith("!") ? `^${body.slice(1)}` : body}]`;
        i = end;
      }
    } else if (char === "{") {
      depth++;
      out += "(?:";
    } else if (char === "}" && depth > 0) {
      depth--;
      out += ")";
    } else if (char === "," && depth > 0) out += "|";
    else out += escapeChar(char);
  }
  out += ")".repeat(depth);
  return new RegExp(`^${out}$`);
}

/** Patterns with a `/` match the relative path; others match the entry's name. */
export function globMatcher(pattern: string): (relativePath: string, name: string) => boolean {
  const re = compileGlob(pattern);
  return pattern.includes("/")
    ? (relative) => re.test(relative)
    : (_relative, name) => re.test(name);
}
