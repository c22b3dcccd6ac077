import { quote } from "./text.js";
/**
 * App version strings (`AnnaAppVersion.version`, L5330–L5350): `X.Y.Z` with an optional
 * `-prerelease`, no `+build`. A new version must be strictly greater than the largest existing
 * one; prereleases order by SemVer 2.0.0 §11 (the spec's example table needs it).
 */

/** Verbatim from L5335. */
export const APP_VERSION_PATTERN = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z-.]+)?$/;

export function isAppVersion(value: string): boolean {
  return APP_VERSION_PATTERN.test(value);
}

interface ParsedVersion {
  readonly core: readonly [bigint, bigint, bigint];
  readonly prerelease: readonly string[] | undefined;
}

function parse(version: string): ParsedVersion {
  const match = APP_VERSION_PATTERN.exec(version);
  if (match === null) throw new Error(`not an app version: ${JSON.stringify(version)}`);
  const dash = version.indexOf("-");
  return {
    core: [BigInt(match[1] ?? "0"), BigInt(match[2] ?? "0"), BigInt(match[3] ?? "0")],
    prerelease: dash < 0 ? undefined : version.slice(dash + 1).split("."),
  };
}

const NUMERIC = /^\d+$/;

/** §11.4: numeric identifiers compare numerically and sort before alphanumeric ones. */
function compareIdentifier(a: string, b: string): number {
  const aNumeric = NUMERIC.test(a);
  const bNumeric = NUMERIC.test(b);
  if (aNumeric && bNumeric) {
    const x = BigInt(a);
    const y = BigInt(b);
    return x === y ? 0 : x < y ? -1 : 1;
  }
  if (aNumeric !== bNumeric) return aNumeric ? -1 : 1;
  return a === b ? 0 : a < b ? -1 : 1;
}

/**
 * Negative when `a < b`, zero when equal, positive when `a > b`. Throws on a string that does not
 * match `APP_VERSION_PATTERN` (check with `isAppVersion` first). Degenerate prereleases the
 * pattern admits (`1.0.0-..`) compare their empty identifiers as alphanumeric `""` (X40).
 */
export function compareAppVersions(a: string, b: string): number {
  const x = parse(a);
  const y = parse(b);
  for (let i = 0; i < 3; i++) {
    const left = x.core[i] ?? 0n;
    const right = y.core[i] ?? 0n;
    if (left !== right) return left < right ? -1 : 1;
  }
  if (x.prerelease === undefined || y.prerelease === undefined) {
    if (x.prerelease === y.prerelease) return 0;
    return x.prerelease === undefined ? 1 : -1;
  }
  const length = Math.max(x.prerelease.length, y.prerelease.length);
  for (let i = 0; i < length; i++) {
    const left = x.prerelease[i];
    const right = y.prerelease[i];
    if (left === undefined) return -1;
    if (right === undefined) return 1;
    const order = compareIdentifier(left, right);
    if (order !== 0) return order;
  }
  return 0;
}

/** Why `next` cannot follow the existing versions, or `undefined` when it can (L5366–L5369). */
export function appVersionProblem(next: string, existing: readonly string[]): string | undefined {
  if (!isAppVersion(next)) {
    return `${quote(next)} is not a version: use X.Y.Z with an optional -prerelease (e.g. "1.2.0" or "1.2.0-beta.1"); +build metadata is not supported`;
  }
  if (existing.includes(next)) return `version ${next} already exists; bump it`;
  const valid = existing.filter(isAppVersion);
  let largest: string | undefined;
  for (const version of valid) {
    if (largest === undefined || compareAppVersions(version, largest) > 0) largest = version;
  }
  if (largest !== undefined && compareAppVersions(next, largest) <= 0) {
    return `version ${next} must be greater than the largest existing version, ${largest}`;
  }
  return undefined;
}
