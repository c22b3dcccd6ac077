/**
 * Typo suggestions. The spec's CLI offers "Levenshtein-1 typo suggestions" for tool ids
 * (L4668); the same helper names the field or value an author probably meant.
 */

/** Levenshtein distance, stopping early once it exceeds `limit`. */
export function editDistance(a: string, b: string, limit = Number.POSITIVE_INFINITY): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + cost,
      );
      current.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > limit) return limit + 1;
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/**
 * The candidates within `maxDistance` edits of `value`, nearest first (ties keep input order).
 * Distance 1 by default, as the spec's linter does.
 */
export function suggestClosest(
  value: string,
  candidates: Iterable<string>,
  maxDistance = 1,
): string[] {
  const scored: { candidate: string; distance: number }[] = [];
  for (const candidate of candidates) {
    if (candidate === value) continue;
    const distance = editDistance(value, candidate, maxDistance);
    if (distance <= maxDistance) scored.push({ candidate, distance });
  }
  return scored.sort((x, y) => x.distance - y.distance).map((entry) => entry.candidate);
}

/** ` Did you mean "x"?` or `""`; case differences count as a match too. */
export function didYouMean(value: string, candidates: readonly string[], maxDistance = 2): string {
  const lower = value.toLowerCase();
  const sameCase = candidates.find((c) => c.toLowerCase() === lower && c !== value);
  const best = sameCase ?? suggestClosest(value, candidates, maxDistance)[0];
  return best === undefined ? "" : ` Did you mean "${best}"?`;
}
