import { describe, expect, it } from "vitest";
import { normalizePlatformKey, platformKey } from "../../src/launch/platform-key.js";

describe("platformKey", () => {
  it.each([
    ["darwin", "arm64", "darwin-arm64"],
    ["darwin", "x64", "darwin-x86_64"],
    ["linux", "x64", "linux-x86_64"],
    ["linux", "arm64", "linux-aarch64"],
    ["linux", "arm", "linux-armv7l"],
    ["win32", "x64", "windows-x86_64"],
    ["win32", "arm64", "windows-arm64"],
  ])("maps Node's %s/%s to the T30 key %s", (platform, arch, key) => {
    expect(platformKey(platform, arch)).toBe(key);
  });

  it("describes this host by default", () => {
    expect(platformKey()).toBe(platformKey(process.platform, process.arch));
  });

  it.each([
    ["Linux-AMD64", "linux-x86_64"],
    ["darwin-x64", "darwin-x86_64"],
    ["linux-arm64", "linux-aarch64"],
    ["darwin-aarch64", "darwin-arm64"],
    ["win32-x64", "windows-x86_64"],
    ["universal", "universal"],
  ])("normalizes the written key %s to %s", (written, key) => {
    expect(normalizePlatformKey(written)).toBe(key);
  });
});
