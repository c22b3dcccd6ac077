// Route matching for the hand router (router.tsx), apart from React so tests run it in Node.

/** `/store/:slug` against `/store/focus-flow` → `{slug: "focus-flow"}`; undefined when not a match. */
export function matchPath(pattern: string, pathname: string): Record<string, string> | undefined {
  const want = pattern.split("/").filter(Boolean);
  const have = pathname.split("/").filter(Boolean);
  if (want.length !== have.length) return undefined;
  const params: Record<string, string> = {};
  for (const [i, part] of want.entries()) {
    const actual = have[i] as string;
    if (part.startsWith(":")) {
      const value = decodeSegment(actual);
      if (value === undefined) return undefined;
      params[part.slice(1)] = value;
    } else if (part !== actual) return undefined;
  }
  return params;
}

/** A typed-in `%E0` is no segment of ours: the page says "not found" instead of throwing. */
function decodeSegment(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}
