// The served SDK (`build:bundle`): one ES module for the browser, with no Node built-ins, that
// exports the spec's entry points. Built here into test-artifacts/ so dist/ is never touched.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as Sdk from "../src/index.js";
import { FakeHost, WINDOW_UUID } from "./helpers/fake-host.js";

const PACKAGE = fileURLToPath(new URL("..", import.meta.url));
/** Budget for the minified module; it measured 22 KiB when written. */
const MAX_BUNDLE_BYTES = 40 * 1024;
let dir: string;
let bundle: string;
let source: string;

beforeAll(() => {
  mkdirSync(join(PACKAGE, "test-artifacts"), { recursive: true });
  dir = mkdtempSync(join(PACKAGE, "test-artifacts", "bundle-"));
  bundle = join(dir, "index.js");
  execFileSync(process.execPath, [join(PACKAGE, "scripts", "bundle.mjs"), "--outfile", bundle], {
    stdio: "pipe",
  });
  source = readFileSync(bundle, "utf8");
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("the SDK bundle", () => {
  it("has no node: imports, no require( and no other imports at all", () => {
    expect(source).not.toMatch(/node:/);
    expect(source).not.toMatch(/\brequire\s*\(/);
    expect(source).not.toMatch(/^\s*import\s|[;}]import\s*[{*"']|\bimport\s*\(/m);
  });

  it("is minified, small and has a linked source map", () => {
    expect(statSync(bundle).size).toBeLessThan(MAX_BUNDLE_BYTES);
    expect(source.split("\n").length).toBeLessThan(5);
    expect(source).toMatch(/\/\/# sourceMappingURL=index\.js\.map\s*$/);
    expect(existsSync(`${bundle}.map`)).toBe(true);
  });

  it("left the zod schemas of @anna-ai/app-schema out", () => {
    expect(source).not.toMatch(/ZodError|\$ZodType/);
    expect(source).toContain("invokeAsync");
  });

  it("exports connect, AnnaAppRuntime.connect and HostApiError (= HostRpcError)", async () => {
    const sdk = (await import(pathToFileURL(bundle).href)) as typeof Sdk;
    expect(typeof sdk.connect).toBe("function");
    expect(sdk.AnnaAppRuntime.connect).toBe(sdk.connect);
    expect(sdk.HostRpcError).toBe(sdk.HostApiError);
    expect(new sdk.HostApiError("x", "y")).toBeInstanceOf(Error);
  });

  it("connects through a postMessage host like the modules do", async () => {
    const sdk = (await import(pathToFileURL(bundle).href)) as typeof Sdk;
    const host = new FakeHost().handle("storage.get", () => ({ value: 7, exists: true }));
    const anna = await sdk.AnnaAppRuntime.connect(host.connectOptions());
    try {
      expect(anna.windowUuid).toBe(WINDOW_UUID);
      await expect(anna.storage.get("k")).resolves.toEqual({ value: 7, exists: true });
      expect(host.requests.map((r) => `${r.ns}.${r.method}`)).toContain("storage.get");
    } finally {
      anna.close();
    }
  });
});
