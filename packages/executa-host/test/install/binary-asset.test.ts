import { describe, expect, it } from "vitest";
import {
  executaHome,
  inferArchiveFormat,
  InstallError,
  resolveBinaryAsset,
  sanitizeToolId,
  sanitizeVersion,
} from "../../src/install/index.js";
import { entrypointFor } from "../../src/install/archive-manifest.js";

describe("resolveBinaryAsset (R76 order)", () => {
  const urls = {
    "darwin-arm64": "https://x.test/t-darwin-arm64.tar.gz",
    "linux-aarch64": {
      url: "https://x.test/t-linux-aarch64.zip",
      sha256: "AB".repeat(32),
      size: 10,
    },
    "*": "https://x.test/t-any",
  };

  it("takes the exact key first, folding arch aliases", () => {
    expect(
      resolveBinaryAsset({ "Linux-AMD64": "https://x.test/a.tgz" }, "linux-x86_64"),
    ).toMatchObject({
      key: "Linux-AMD64",
      format: "tar.gz",
    });
    expect(resolveBinaryAsset(urls, "linux-aarch64")).toEqual({
      key: "linux-aarch64",
      asset: { url: "https://x.test/t-linux-aarch64.zip", sha256: "ab".repeat(32), size: 10 },
      format: "zip",
    });
  });

  it("then the same OS with another arch, then a wildcard, then the only entry", () => {
    expect(resolveBinaryAsset(urls, "darwin-x86_64").key).toBe("darwin-arm64");
    expect(resolveBinaryAsset(urls, "windows-x86_64")).toMatchObject({ key: "*", format: "raw" });
    expect(
      resolveBinaryAsset(
        { universal: "https://x.test/u.zip", "darwin-arm64": "https://x.test/d" },
        "linux-x86_64",
      ).key,
    ).toBe("universal");
    expect(resolveBinaryAsset({ "darwin-arm64": "https://x.test/d.zip" }, "linux-x86_64").key).toBe(
      "darwin-arm64",
    );
  });

  it("names the platform and what is available when nothing matches", () => {
    expect(() =>
      resolveBinaryAsset(
        { "darwin-arm64": "https://a.test/x", "windows-x86_64": "https://a.test/y" },
        "linux-x86_64",
      ),
    ).toThrow(
      "No binary available for platform 'linux-x86_64'. Available: darwin-arm64, windows-x86_64",
    );
  });

  it("refuses malformed assets with the field and what would be right", () => {
    const bad = (v: unknown) => () => resolveBinaryAsset({ "linux-x86_64": v }, "linux-x86_64");
    expect(bad({ url: "https://x.test/a", sha256: "xyz" })).toThrow(
      /sha256 must be 64 hex characters/,
    );
    expect(bad({ url: "https://x.test/a", size: -1 })).toThrow(/size must be a byte count/);
    expect(bad({ url: "https://x.test/a", format: "rar" })).toThrow(
      /format must be one of tar\.gz, tgz, zip, raw/,
    );
    expect(bad("file:///etc/passwd")).toThrow(/must be an http\(s\) URL \(got file:\)/);
    expect(bad(42)).toThrow(InstallError);
    expect(() => resolveBinaryAsset(["https://x.test/a"], "linux-x86_64")).toThrow(
      /binary_urls must be an object/,
    );
  });

  it("infers the format from the URL path, ignoring the query", () => {
    expect(inferArchiveFormat("https://x.test/a.tar.gz?sig=1")).toBe("tar.gz");
    expect(inferArchiveFormat("https://x.test/a.TGZ")).toBe("tar.gz");
    expect(inferArchiveFormat("https://x.test/a.zip#x")).toBe("zip");
    expect(inferArchiveFormat("https://x.test/a.tar.gz.sig")).toBe("raw");
  });
});

describe("layout names", () => {
  it("flattens tool ids and versions to one safe segment", () => {
    expect(sanitizeToolId("@scope/pkg")).toBe("_scope_pkg");
    expect(sanitizeToolId("..")).toBe("_.");
    expect(sanitizeToolId(".staging-x")).toBe("_staging-x");
    expect(sanitizeVersion("")).toBe("unknown");
    expect(sanitizeVersion("1.2.3+build/7")).toBe("1.2.3_build_7");
  });

  it("reads ANNA_EXECUTA_HOME, which must be absolute", () => {
    expect(executaHome({ ANNA_EXECUTA_HOME: "/opt/anna" })).toBe("/opt/anna");
    expect(() => executaHome({ ANNA_EXECUTA_HOME: "rel/dir" })).toThrow(/must be an absolute path/);
    expect(executaHome({})).toMatch(/\.anna[\\/]executa$/);
  });

  it("looks a per-platform entrypoint up as full key, then OS, then default", () => {
    const map = { default: "bin/x", windows: "bin/x.exe", "darwin-arm64": "bin/x-arm64" };
    expect(entrypointFor(map, "darwin-arm64")).toBe("bin/x-arm64");
    expect(entrypointFor(map, "windows-arm64")).toBe("bin/x.exe");
    expect(entrypointFor(map, "linux-x86_64")).toBe("bin/x");
    expect(entrypointFor("bin/y", "linux-x86_64")).toBe("bin/y");
  });
});
