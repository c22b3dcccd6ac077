// The "{os}-{arch}" key binaries are published under (T30, L2447–L2461).

const OS_NAMES: Readonly<Record<string, string>> = { win32: "windows", darwin: "darwin" };
// Folded so `amd64`/`x64` and `x86_64` name the same asset (L2461).
const ARCH_ALIASES: Readonly<Record<string, string>> = {
  x64: "x86_64",
  amd64: "x86_64",
  x86_64: "x86_64",
  arm: "armv7l",
};

/**
 * The platform key of this host (or of the given Node `platform`/`arch`), e.g. `linux-x86_64`,
 * `darwin-arm64`, `linux-aarch64`, `windows-x86_64`. ARM64 is `aarch64` on Linux and `arm64`
 * elsewhere, as the table in T30 lists it.
 */
export function platformKey(
  platform: string = process.platform,
  arch: string = process.arch,
): string {
  const os = OS_NAMES[platform] ?? platform.toLowerCase();
  return `${os}-${normalizeArch(os, arch.toLowerCase())}`;
}

/** Folds a user-written key (`Linux-AMD64`, `darwin-x64`, `linux-arm64`) into the canonical form. */
export function normalizePlatformKey(key: string): string {
  const lower = key.trim().toLowerCase();
  const dash = lower.indexOf("-");
  if (dash === -1) return lower;
  const os = lower.slice(0, dash);
  const canonicalOs = os === "win32" || os === "win" ? "windows" : os === "macos" ? "darwin" : os;
  return `${canonicalOs}-${normalizeArch(canonicalOs, lower.slice(dash + 1))}`;
}

function normalizeArch(os: string, arch: string): string {
  if (arch === "arm64" || arch === "aarch64") return os === "linux" ? "aarch64" : "arm64";
  return ARCH_ALIASES[arch] ?? arch;
}
