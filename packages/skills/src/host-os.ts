import type { SkillOs } from "./types.js";

/** Maps `process.platform` to the spec's `os` values (S20); other platforms match no list. */
export function hostSkillOs(platform: NodeJS.Platform = process.platform): SkillOs | undefined {
  if (platform === "darwin") return "macos";
  if (platform === "win32") return "windows";
  if (platform === "linux") return "linux";
  return undefined;
}

/** S20: no `os` list means everywhere; otherwise the host must be listed. */
export function isAvailableOn(
  os: readonly string[] | undefined,
  host: SkillOs | undefined,
): boolean {
  if (os === undefined) return true;
  return host !== undefined && os.includes(host);
}
