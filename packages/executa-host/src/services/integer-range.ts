/**
 * An integer within `[min, max]`: the bound every offline service's counts, limits and TTLs
 * share. Each caller keeps its own error (code, message and data differ per family).
 */
export function isIntegerIn(value: unknown, min: number, max: number): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= min && value <= max;
}
