// A published executa from `examples/` installs from a real Nexus and runs: the Python, Node and
// Go examples are packed as binary-distribution archives (Python and Node ship a `bin/<name>`
// shell entry), served on 127.0.0.1, published with `anna-app executa publish` (binary_urls with
// sha256 and size), installed by another user with `anna-app executa install`, and answer
// describe and invoke through ExecutaHost. A re-uploaded archive is refused and the installed
// version keeps running; a local folder installs offline with `--local`.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { build } from "esbuild";
import { ExecutaHost, platformKey } from "@anna-ai/executa-host";
import { installedLaunchSpec } from "@anna-ai/executa-host/install";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { privateHome } from "../../../packages/cli/test/account/cli-process.js";
import { startTestNexus, type TestNexus } from "../../../packages/cli/test/account/nexus-server.js";
import {
  jsonLine,
  runCli,
  tempDir,
  type RunResult,
} from "../../../packages/cli/test/executa-init/helpers.js";
import { type TarEntry, tarGz, zip } from "../../support/archives.js";
import { startFileServer, type FileServer } from "../../support/file-server.js";
import { needs } from "../../support/toolchains.js";
import { exampleDir, goEnv, GO_BUILD_TIMEOUT_MS, pluginEnv } from "../examples/example-plugins.js";

const SLOW = { timeout: 240_000 };
const PROCESS_MS = 60_000;
const PLATFORM = platformKey();
const go = needs("go");
const python = needs("python3");

let nexus: TestNexus;
let files: FileServer;
beforeAll(async () => {
  nexus = await startTestNexus();
  files = await startFileServer();
});
afterAll(async () => {
  await files?.close();
  await nexus?.close();
});

let people = 0;
async function person(handle: string) {
  const cookie = await nexus.signup(`install${++people}@example.com`);
  const { pat } = await nexus.devicePat(cookie);
  const res = await fetch(`${nexus.url}/api/v1/developer/profile/handle`, {
    method: "PUT",
    headers: { authorization: `Bearer ${pat}`, "content-type": "application/json" },
    body: JSON.stringify({ handle }),
  });
  expect(res.status).toBe(200);
  const { env } = privateHome();
  env.ANNA_APP_HOST = nexus.url;
  env.ANNA_APP_PAT = pat;
  return (args: string[], cwd: string) => runCli(args, { cwd, env, timeoutMs: PROCESS_MS });
}

const ok = (r: RunResult) => {
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  return r;
};
const sha256 = (b: Buffer) => createHash("sha256").update(b).digest("hex");

/** A `bin/<name>` POSIX sh entry that starts `command` from the install folder. */
const shEntry = (command: string) =>
  `#!/bin/sh\nHERE=$(cd "$(dirname "$0")/.." && pwd)\nexec ${command}\n`;

const manifestJson = (name: string, version: string, entry: string) =>
  JSON.stringify({ name, version, runtime: { binary: { entrypoint: { default: entry } } } });

/** Serves `archive`, publishes a binary executa pointing at it, returns its minted tool_id. */
async function publishBinary(
  cli: Awaited<ReturnType<typeof person>>,
  slug: string,
  archive: Buffer,
  file: string,
): Promise<{ toolId: string; url: string }> {
  files.serve(`/${file}`, archive);
  const url = files.url(`/${file}`);
  const dir = tempDir(`install-publish-${slug}-`);
  writeFileSync(
    path.join(dir, "executa.json"),
    JSON.stringify({
      slug,
      name: `Example ${slug}`,
      version: "1.0.0",
      description: `The ${slug} example, as a binary`,
      distribution: {
        type: "binary",
        executable_name: slug,
        binary_urls: { [PLATFORM]: { url, sha256: sha256(archive), size: archive.length } },
      },
    }),
  );
  const published = jsonLine(ok(await cli(["executa", "publish", "--json"], dir))) as {
    tool_id: string;
    version: string;
  };
  expect(published.version).toBe("1.0.0");
  return { toolId: published.tool_id, url };
}

/** Installs with the CLI into `home` and starts it under ExecutaHost; the host is closed by the caller. */
async function installAndStart(
  cli: Awaited<ReturnType<typeof person>>,
  toolId: string,
  home: string,
  host: ExecutaHost,
) {
  const out = jsonLine(
    ok(await cli(["executa", "install", toolId, "--home", home, "--json"], home)),
  ) as {
    tool_id: string;
    version: string;
    layout: string;
    record: { sha256: string; platform: string };
  };
  expect(out).toMatchObject({
    tool_id: toolId,
    version: "1.0.0",
    layout: "v2",
    record: { platform: PLATFORM },
  });
  const spec = await installedLaunchSpec(toolId, { home, env: pluginEnv() });
  return host.register(spec, { userId: "buyer" });
}

describe("anna-app executa install, end to end", SLOW, () => {
  it.skipIf(python.skip)(
    `installs and runs the Python example (py-weather)${python.reason}`,
    async () => {
      const author = await person("pyauthor");
      const buyer = await person("pybuyer");
      const src = exampleDir("py-weather");
      const archive = tarGz([
        {
          name: "bin/py-weather",
          data: shEntry('python3 -u "$HERE/weather_plugin.py"'),
          mode: 0o755,
        },
        { name: "weather_plugin.py", data: readFileSync(path.join(src, "weather_plugin.py")) },
        { name: "manifest.json", data: manifestJson("py-weather", "1.0.0", "bin/py-weather") },
      ]);
      const { toolId } = await publishBinary(
        author,
        "py-weather",
        archive,
        "py-weather-1.0.0.tar.gz",
      );
      const home = tempDir("install-home-");
      const host = new ExecutaHost({ env: pluginEnv({}, ["WEATHER_API_KEY"]) });
      try {
        const plugin = await installAndStart(buyer, toolId, home, host);
        expect((await plugin.describe()).tools.map((t) => t.name)).toContain("get_weather");
        const answer = await host.invoke(
          "buyer",
          toolId,
          "get_weather",
          { city: "Lima" },
          {
            credentials: { WEATHER_API_KEY: "sk_live_abcd4321" },
          },
        );
        expect(answer).toMatchObject({
          ok: true,
          data: { city: "Lima", credential_source: "context" },
        });
      } finally {
        await host.close();
      }

      // The author re-uploads different bytes under the same URL: the pinned sha256 refuses them,
      // and the installed version is still current.
      files.serve(
        "/py-weather-1.0.0.tar.gz",
        tarGz([{ name: "bin/py-weather", data: "#!/bin/sh\nexit 1\n", mode: 0o755 }]),
      );
      const refused = await buyer(["executa", "install", toolId, "--home", home], home);
      expect(refused.code).toBe(5);
      expect(refused.stderr).toMatch(/does not match the declared|declares size/);
      expect(refused.stderr.trim().split("\n")).toHaveLength(1);
      expect(
        readFileSync(path.join(home, "tools", toolId, "current", "weather_plugin.py"), "utf8"),
      ).toContain("get_weather");
    },
  );

  it("installs and runs the Node example (ts-notes), bundled into one file", async () => {
    const author = await person("nodeauthor");
    const buyer = await person("nodebuyer");
    const bundleDir = tempDir("install-node-bundle-");
    await build({
      entryPoints: [path.join(exampleDir("ts-notes"), "dist", "main.js")],
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      outfile: path.join(bundleDir, "main.mjs"),
      logLevel: "silent",
    });
    const archive = zip([
      { name: "bin/", mode: 0o040755 },
      // Zip made elsewhere drops +x: the manifest's entrypoint gets 0o755 anyway.
      { name: "bin/ts-notes", data: shEntry('node "$HERE/lib/main.mjs"'), mode: 0o100644 },
      { name: "lib/main.mjs", data: readFileSync(path.join(bundleDir, "main.mjs")) },
      { name: "manifest.json", data: manifestJson("ts-notes", "1.0.0", "bin/ts-notes") },
    ]);
    const { toolId } = await publishBinary(author, "ts-notes", archive, "ts-notes-1.0.0.zip");
    const home = tempDir("install-home-");
    const host = new ExecutaHost({ env: pluginEnv() });
    try {
      const plugin = await installAndStart(buyer, toolId, home, host);
      expect((await plugin.describe()).tools.map((t) => t.name)).toEqual(
        expect.arrayContaining(["add_note", "echo"]),
      );
      const echoed = await host.invoke("buyer", toolId, "echo", { text: "hi" });
      expect(echoed).toMatchObject({ ok: true, data: { text: "hi", api_key: null } });
    } finally {
      await host.close();
    }
  });

  it.skipIf(go.skip)(
    `installs and runs the Go example (go-hello), built with go build${go.reason}`,
    async () => {
      const author = await person("goauthor");
      const buyer = await person("gobuyer");
      const out = tempDir("install-go-build-");
      execFileSync("go", ["build", "-o", path.join(out, "go-hello"), "."], {
        cwd: exampleDir("go-hello"),
        env: goEnv(),
        timeout: GO_BUILD_TIMEOUT_MS,
      });
      const entries: TarEntry[] = [
        { name: "bin/go-hello", data: readFileSync(path.join(out, "go-hello")), mode: 0o755 },
        { name: "manifest.json", data: manifestJson("go-hello", "1.0.0", "bin/go-hello") },
      ];
      const { toolId } = await publishBinary(
        author,
        "go-hello",
        tarGz(entries),
        "go-hello-1.0.0.tar.gz",
      );
      const home = tempDir("install-home-");
      const host = new ExecutaHost({ env: pluginEnv() });
      try {
        const plugin = await installAndStart(buyer, toolId, home, host);
        expect((await plugin.describe()).tools.map((t) => t.name)).toContain("greet");
        expect(await host.invoke("buyer", toolId, "greet", { name: "Ada" })).toMatchObject({
          ok: true,
          data: { greeting: "Hello, Ada!", prefix_source: "default" },
        });
      } finally {
        await host.close();
      }
    },
  );

  it.skipIf(python.skip)(
    `installs a local folder offline with --local and runs it${python.reason}`,
    async () => {
      const home = tempDir("install-home-");
      const { env } = privateHome();
      const src = exampleDir("bin-bundle");
      const toolId = "tool-examples-bin-bundle-00000001";
      const r = ok(
        await runCli(["executa", "install", "--local", src, "--home", home, "--json"], {
          cwd: home,
          env,
          timeoutMs: PROCESS_MS,
        }),
      );
      const out = jsonLine(r) as {
        tool_id: string;
        version: string;
        shim: string;
        record: { distribution_type: string };
      };
      // The tool_id comes from executa.json, the version from manifest.json, the shim is the tool_id.
      expect(out).toMatchObject({
        tool_id: toolId,
        version: "0.1.0",
        shim: path.join(home, "bin", toolId),
        record: { distribution_type: "local" },
      });
      await mkdir(path.join(home, "scratch"), { recursive: true });
      const host = new ExecutaHost({
        env: pluginEnv({}, ["EXECUTA_HOME", "EXECUTA_DATA", "LD_LIBRARY_PATH"]),
      });
      try {
        host.register(await installedLaunchSpec(toolId, { home, env: pluginEnv() }), {
          userId: "me",
        });
        const report = await host.invoke("me", toolId, "env_report", {});
        expect(report).toMatchObject({
          ok: true,
          data: { EXECUTA_HOME: path.join(home, "tools", toolId, "current") },
        });
      } finally {
        await host.close();
      }
      const usage = await runCli(
        ["executa", "install", "--local", path.join(home, "scratch"), "--home", home],
        { cwd: home, env, timeoutMs: PROCESS_MS },
      );
      expect(usage.code).toBe(2);
      expect(usage.stderr).toMatch(/--executable-name <name>/);
    },
  );
});
