// The pre-review checks that read a UI bundle, on real bundles in a real blob store (SQLite):
// each finds what it is for (true positives) and stays quiet on a clean bundle. The fake secrets
// are assembled at run time so no token-shaped string sits in the repository.
import { beforeAll, describe, expect, it } from "vitest";
import { assetSizeCheck } from "../../src/apps/checks/asset-size.js";
import { BUNDLE_CHECKS } from "../../src/apps/checks/bundle-checks.js";
import { bundleCspCheck } from "../../src/apps/checks/bundle-csp.js";
import { fileMapCheck } from "../../src/apps/checks/file-map.js";
import { secretsCheck } from "../../src/apps/checks/secrets.js";
import { DIALECTS, useDialectCleanup } from "../helpers/dialects.js";
import {
  registry,
  sha256Hex,
  tempBlobStore,
  uiManifest,
  type Registry,
} from "../helpers/app-bundles.js";

useDialectCleanup();

const CLEAN_HTML = `<!doctype html>
<html><head><link rel="stylesheet" href="./app.css"><script type="module" src="./app.js"></script>
<script type="application/ld+json">{"@type": "WebApplication"}</script></head>
<body><button id="go">Go</button></body></html>`;
const CLEAN_JS = `import { AnnaAppRuntime } from "./sdk.js";
const runtime = await AnnaAppRuntime.connect();
document.getElementById("go").addEventListener("click", async () => {
  const data = await fetch("https://api.example.com/v1/items");
  await runtime.storage.set("last", await data.json());
});
// Mentions of an api key, a private key or sk- in prose are not secrets.
const label = "Paste your API key in the settings";`;

const r = (n: number, c = "A") => c.repeat(n);
const FAKE = {
  pem: ["-----BEGIN", "RSA PRIVATE KEY-----"].join(" ") + "\nMIIE\n-----END RSA PRIVATE KEY-----",
  aws: "AKIA" + r(16, "Q"),
  awsExample: "AKIA" + "IOSFODNN7" + "EXAMPLE",
  openai: "sk-" + "proj-" + r(48, "b"),
  anthropic: "sk-" + "ant-api03-" + r(90, "c"),
  github: "gh" + "p_" + r(36, "d"),
  slack: "xo" + "xb-" + "1234567890" + "-" + "1234567890123" + "-" + r(24, "e"),
};

let reg: Registry;
let seq = 0;

async function bundled(
  files: Parameters<Registry["bundle"]>[2]["files"],
  opts: {
    manifest?: unknown;
    externalOrigins?: string[];
    fileMap?: Parameters<Registry["bundle"]>[2]["fileMap"];
  } = {},
) {
  seq += 1;
  const app = await reg.app({ slug: `app-${seq}` });
  const version = await reg.version(app, {
    version: "1.0.0",
    ...(opts.manifest ? { manifest: opts.manifest } : {}),
  });
  await reg.bundle(app, version, {
    files,
    ...(opts.externalOrigins ? { externalOrigins: opts.externalOrigins } : {}),
    ...(opts.fileMap ? { fileMap: opts.fileMap } : {}),
  });
  return { app, version };
}

const sqlite = DIALECTS[0]!;
describe("the bundle pre-review checks", () => {
  beforeAll(async () => {
    reg = registry((await sqlite.open()).db, await tempBlobStore());
  });

  it("finds nothing in a clean bundle", async () => {
    const manifest = uiManifest(
      {},
      {
        bundle: {
          format: "static-spa",
          entry: "index.html",
          external_origins: ["https://api.example.com"],
        },
      },
    );
    const { app, version } = await bundled(
      {
        "index.html": CLEAN_HTML,
        "app.js": CLEAN_JS,
        "sdk.js": "export const AnnaAppRuntime = {};",
        "app.css": "body{}",
        ".env.example": "API_KEY=",
      },
      { manifest, externalOrigins: ["https://api.example.com"] },
    );
    expect(await reg.runChecks(BUNDLE_CHECKS, app, version)).toEqual([]);
  });

  it("finds private keys and API tokens by kind, file and line, never quoting them", async () => {
    const { app, version } = await bundled({
      "index.html": CLEAN_HTML,
      "app.js": `const a = 1;\nconst aws = "${FAKE.aws}";\nconst doc = "${FAKE.awsExample}";`,
      "keys/server.pem": FAKE.pem,
      "config.json": JSON.stringify({ openai: FAKE.openai, anthropic: FAKE.anthropic }),
      "lib/gh.js": `export const token = "${FAKE.github}";`,
      "lib/slack.js": `// notify\n\nexport const t = '${FAKE.slack}';`,
      ".env": "SECRET=1",
      "certs/client.p12": Buffer.from([0x30, 0x82, 0x01]),
    });
    const findings = await reg.runChecks([secretsCheck], app, version);
    const byPath = (p: string) => findings.filter((f) => f.path === p).map((f) => f.message);
    expect(byPath("app.js")).toEqual([
      expect.stringMatching(/app\.js line 2 .*an AWS access key id/),
    ]);
    expect(byPath("keys/server.pem")).toEqual([expect.stringContaining("a PEM private key")]);
    expect(byPath("config.json")).toEqual([
      expect.stringContaining("an Anthropic API key"),
      expect.stringContaining("an OpenAI API key"),
    ]);
    expect(byPath("config.json")).toHaveLength(2);
    expect(byPath("lib/gh.js")).toEqual([expect.stringContaining("a GitHub token")]);
    expect(byPath("lib/slack.js")).toEqual([expect.stringMatching(/line 3 .*a Slack token/)]);
    expect(byPath(".env")).toEqual([expect.stringContaining("environment file")]);
    expect(byPath("certs/client.p12")).toEqual([expect.stringContaining("key store")]);
    expect(findings.every((f) => f.severity === "error")).toBe(true);
    const all = JSON.stringify(findings);
    for (const secret of Object.values(FAKE)) expect(all).not.toContain(secret.slice(4, 20));
  });

  it("audits the bundle against the CSP it is served with and the frame's sandbox", async () => {
    const inline = "console.log('allowed by hash')";
    const hash = `'sha256-${Buffer.from(sha256Hex(Buffer.from(inline)), "hex").toString("base64")}'`;
    const manifest = uiManifest({}, { csp_overrides: { "script-src": [hash] } });
    const { app, version } = await bundled(
      {
        "index.html": `<!doctype html>
<meta http-equiv="Content-Security-Policy" content="script-src * 'unsafe-eval'">
<script src="https://cdn.example.com/lib.js"></script>
<link rel="stylesheet" href="https://fonts.example.com/a.css">
<script>${inline}</script>
<script>alert(1)</script>
<button onclick="go()">Go</button>
<a href="javascript:void(0)">x</a>`,
        "app.js": `import x from "https://esm.example.com/x.js";
eval("1+1"); new Function("return 1"); setTimeout("tick()", 10);
localStorage.setItem("a", "b"); localStorage.getItem("a");
document.cookie = "x=1";
window.top.location = "https://elsewhere.example.com";
fetch("https://tracker.example.net/collect");`,
      },
      { manifest },
    );
    const findings = await reg.runChecks([bundleCspCheck], app, version);
    const text = findings.map((f) => `${f.severity} ${f.message}`).join("\n");
    expect(text).toMatch(
      /error index\.html line 2: a <meta http-equiv=Content-Security-Policy> that asks for more/,
    );
    expect(text).toMatch(/error index\.html line 3: a script from https:\/\/cdn\.example\.com/);
    expect(text).toMatch(
      /warning index\.html line 4: a stylesheet from https:\/\/fonts\.example\.com/,
    );
    // The hashed inline script is allowed; the other is not.
    expect(findings.filter((f) => f.message.includes("inline <script>"))).toHaveLength(1);
    expect(text).toMatch(/index\.html line 6: an inline <script>/);
    expect(text).toMatch(/index\.html line 7: an inline event handler/);
    expect(text).toMatch(/index\.html line 8: a javascript: URL/);
    expect(text).toMatch(/error app\.js line 1: an import from https:\/\/esm\.example\.com/);
    expect(text).toMatch(/app\.js line 2: eval .* \(3 places, the first shown\)/);
    expect(text).toMatch(/app\.js line 3: browser storage .* \(2 places/);
    expect(text).toMatch(/app\.js line 4: document\.cookie/);
    expect(text).toMatch(/app\.js line 5: navigation of the parent page/);
    expect(text).toMatch(
      /app\.js line 6: a request to https:\/\/tracker\.example\.net, which connect-src blocks/,
    );
  });

  it("reports oversized files, totals and file counts against configurable thresholds", async () => {
    const big = Buffer.alloc(3000, 1);
    const { app, version } = await bundled({
      "index.html": CLEAN_HTML,
      "big.png": big,
      "huge.png": Buffer.alloc(6000, 2),
    });
    const check = assetSizeCheck({
      fileWarnBytes: 2000,
      fileErrorBytes: 5000,
      totalWarnBytes: 4000,
      totalErrorBytes: 100_000,
      fileCountWarn: 2,
    });
    const findings = await reg.runChecks([check], app, version);
    expect(findings).toEqual([
      expect.objectContaining({ severity: "warning", path: "big.png" }),
      expect.objectContaining({ severity: "error", path: "huge.png" }),
      expect.objectContaining({ severity: "warning", message: expect.stringContaining("in all") }),
      expect.objectContaining({ severity: "warning", message: expect.stringContaining("3 files") }),
    ]);
    // The defaults pass the same bundle.
    expect(await reg.runChecks([assetSizeCheck()], app, version)).toEqual([]);
  });

  it("holds the bundle to its declared file map and the blob store to its rows", async () => {
    const good = Buffer.from(CLEAN_HTML);
    const { app, version } = await bundled(
      { "index.html": CLEAN_HTML, "extra.js": "1" },
      {
        fileMap: {
          "index.html": {
            sha256: sha256Hex(good),
            byte_size: good.length,
            content_type: "text/html; charset=utf-8",
          },
          "missing.css": { sha256: "0".repeat(64), byte_size: 3, content_type: "text/css" },
        },
      },
    );
    let findings = await reg.runChecks([fileMapCheck], app, version);
    expect(findings.map((f) => f.message)).toEqual([
      "missing.css is in the file map but was never received",
      "extra.js is in the bundle but not in its file map",
    ]);
    // An object changed behind the record's back.
    const row = await reg.db
      .selectFrom("app_bundle_files")
      .innerJoin("app_bundles", "app_bundles.id", "app_bundle_files.bundle_id")
      .select(["blob_key"])
      .where("app_bundles.version_id", "=", version)
      .where("relative_path", "=", "index.html")
      .executeTakeFirstOrThrow();
    await reg.blobs.put(row.blob_key, "text/html", new Blob(["tampered"]).stream(), 1000);
    findings = await reg.runChecks([fileMapCheck], app, version);
    expect(findings.map((f) => f.message)).toContain(
      "index.html in the blob store no longer matches its sha256 or size",
    );

    // A UI version with no bundle at all.
    const bare = await reg.app({ slug: "no-bundle" });
    const v = await reg.version(bare, { version: "1.0.0" });
    expect((await reg.runChecks([fileMapCheck], bare, v))[0]?.message).toContain(
      "has no finalized bundle",
    );
  });
});
