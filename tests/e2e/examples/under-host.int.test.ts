// The examples run under our own host: launch detection (detectLaunchSpec) finds each one the
// way `anna-app executa dev --dir` would, and ExecutaHost starts, handshakes, invokes and shuts
// them down. The raw-wire tests (@anna-ai/executa-test) pin the wire; these prove the pieces fit.

import { join } from "node:path";
import { detectLaunchSpec, ExecutaHost } from "@anna-ai/executa-host";
import type { LaunchSpec } from "@anna-ai/executa-host";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { needs } from "../../support/toolchains.js";
import { exampleDir, goBuild, goEnv, GO_BUILD_TIMEOUT_MS, pluginEnv } from "./example-plugins.js";
import type { GoBuild } from "./example-plugins.js";

const USER = "user-1";
const go = needs("go");

/** Go runs (`go run .`) compile on first start; later starts hit the build cache. */
const GO_START_TIMEOUT_MS = 60_000;

function newHost(env: NodeJS.ProcessEnv = pluginEnv()): ExecutaHost {
  const host = new ExecutaHost({ env });
  onTestFinished(() => host.close());
  return host;
}

async function detect(
  example: string,
  options: Parameters<typeof detectLaunchSpec>[1] = {},
): Promise<LaunchSpec> {
  return detectLaunchSpec(exampleDir(example), { env: pluginEnv(), ...options });
}

describe("examples under ExecutaHost", () => {
  it("detects each example's identity and launch type from its files", async () => {
    const weather = await detect("py-weather");
    expect(weather).toMatchObject({ toolId: "tool-examples-py-weather-00000001", type: "python" });
    const studio = await detect("py-studio");
    expect(studio).toMatchObject({ toolId: "tool-examples-py-studio-00000001", type: "python" });
    const bundle = await detect("bin-bundle");
    expect(bundle).toMatchObject({ toolId: "tool-examples-bin-bundle-00000001", type: "binary" });
    expect(bundle.command[0]).toBe(join(exampleDir("bin-bundle"), "bin", "bin-bundle"));
  });

  it("runs py-weather on protocol 1.1 with credentials passed per invoke", async () => {
    const host = newHost(pluginEnv({}, ["WEATHER_API_KEY"]));
    const plugin = host.register(await detect("py-weather"), { userId: USER });
    const manifest = await plugin.describe();
    expect(manifest.tools.map((t) => t.name)).toContain("get_weather");
    expect(plugin.protocolVersion).toBe("1.1");

    const ok = await host.invoke(
      USER,
      plugin.toolId,
      "get_weather",
      { city: "Lima" },
      {
        credentials: { WEATHER_API_KEY: "sk_live_abcd4321" },
      },
    );
    expect(ok).toMatchObject({
      ok: true,
      data: { city: "Lima", api_key: "sk_…4321", credential_source: "context" },
    });
    const failed = await host.invoke(USER, plugin.toolId, "get_weather", { city: "Lima" });
    expect(failed).toMatchObject({
      ok: false,
      kind: "tool_failed",
      error: "WEATHER_API_KEY not configured",
    });
    const unknown = await host.invoke(USER, plugin.toolId, "snow_depth", {});
    expect(unknown).toMatchObject({ ok: false, kind: "rpc_error", error: { code: -32601 } });
    expect(await host.health(USER, plugin.toolId)).toMatchObject({ status: "healthy" });
  });

  it("starts bin-bundle with EXECUTA_HOME, EXECUTA_DATA, lib/ and share/bin/ set by the host (T35)", async () => {
    const home = exampleDir("bin-bundle");
    const host = newHost(pluginEnv({}, ["EXECUTA_HOME", "EXECUTA_DATA", "LD_LIBRARY_PATH"]));
    const plugin = host.register(await detect("bin-bundle"), { userId: USER });
    const report = await host.invoke(USER, plugin.toolId, "env_report", {});
    expect(report).toMatchObject({
      ok: true,
      data: {
        EXECUTA_HOME: home,
        EXECUTA_DATA: join(home, "data"),
        lib_source: "LD_LIBRARY_PATH",
        checks: {
          cwd_is_home: true,
          data_is_home_data: true,
          lib_first_on_library_path: true,
          share_bin_first_on_path: true,
          helper_from_bundle: true,
        },
      },
    });
    const shout = await host.invoke(USER, plugin.toolId, "shout", { text: "bundled" });
    expect(shout).toMatchObject({ ok: true, data: { output: "BUNDLED!" } });
  });

  it("negotiates protocol 2.0 with py-studio and takes a ~1 MiB result through file transport", async () => {
    const host = newHost();
    const plugin = host.register(await detect("py-studio"), { userId: USER });
    const outcome = await host.invoke(USER, plugin.toolId, "big_result", { size_kib: 1024 });
    expect(plugin.protocolVersion).toBe("2.0");
    expect(outcome).toMatchObject({ ok: true, data: { bytes: 1024 * 1024 } });
  });

  it("serves py-studio's context_report with the invoke context the host sends (H9)", async () => {
    const host = newHost();
    const plugin = host.register(await detect("py-studio"), { userId: USER });
    const outcome = await host.invoke(
      USER,
      plugin.toolId,
      "context_report",
      {},
      { credentials: { API_TOKEN: "t" } },
    );
    expect(outcome).toMatchObject({
      ok: true,
      data: {
        invoke_id: expect.stringMatching(/\S/) as unknown,
        context_keys: expect.arrayContaining([
          "invoke_id",
          "plugin_name",
          "deadline_ms",
          "credentials",
        ]) as unknown,
        credential_names: ["API_TOKEN"],
        reverse_enabled: true,
      },
    });
  });

  it("without a router, py-studio's reverse calls are refused with the family code and passed through", async () => {
    const host = newHost();
    const plugin = host.register(await detect("py-studio"), { userId: USER });
    const sampling = await host.invoke(USER, plugin.toolId, "summarize", { text: "x" });
    expect(sampling).toMatchObject({ ok: false, kind: "rpc_error", error: { code: -32008 } });
    const storage = await host.invoke(USER, plugin.toolId, "note_list", {});
    expect(storage).toMatchObject({ ok: false, kind: "rpc_error", error: { code: -32021 } });
    expect(plugin.state).toBe("ready");
  });

  describe.skipIf(go.skip)(`Go examples${go.reason}`, () => {
    let builds: GoBuild[] = [];

    // Building first fills the Go cache, so the host's own `go run .` only links: on a cold CI
    // cache a compile inside the 5 s initialize window would fall back to protocol 1.1.
    beforeAll(async () => {
      builds = [
        await goBuild("go-hello", { "go-hello": ["."] }),
        await goBuild("go-multi", { credential: ["credential_plugin.go"] }),
      ];
    }, GO_BUILD_TIMEOUT_MS);
    afterAll(() => {
      for (const build of builds) build.cleanup();
    });

    it(
      "runs go-hello with the detected `go run .` on protocol 2.0, credentials per invoke",
      async () => {
        const host = newHost(goEnv());
        const spec = await detect("go-hello", { env: goEnv() });
        expect(spec).toMatchObject({ toolId: "tool-examples-go-hello-00000001", type: "go" });
        expect(spec.command.slice(1, 3)).toEqual(["run", "."]);
        const plugin = host.register(spec, { userId: USER });
        const outcome = await host.invoke(
          USER,
          plugin.toolId,
          "greet",
          { name: "Dee" },
          {
            credentials: { GREETING_PREFIX: "Hey" },
          },
        );
        expect(plugin.protocolVersion).toBe("2.0");
        expect(outcome).toMatchObject({
          ok: true,
          data: { greeting: "Hey, Dee!", prefix_source: "context" },
        });
      },
      GO_START_TIMEOUT_MS,
    );

    it("picks credential_plugin.go out of go-multi with pluginFile", async () => {
      const folder = await detect("go-multi", { env: goEnv() });
      expect(folder.command.slice(1)).toEqual(["run", "."]); // main.go: the other file is tagged ignore
      const spec = await detect("go-multi", { env: goEnv(), pluginFile: "credential_plugin.go" });
      expect(spec.command).toContain("credential_plugin.go");
      // The detected command is `go run credential_plugin.go`; run the binary built from it.
      const binary = builds[1]?.binaries.credential;
      if (!binary) throw new Error("credential_plugin.go was not built");
      const host = newHost(goEnv());
      const plugin = host.register({ ...spec, command: [binary] }, { userId: USER });
      const outcome = await host.invoke(
        USER,
        plugin.toolId,
        "check_credentials",
        {},
        {
          credentials: { SERVICE_TOKEN: "tok_1234" },
        },
      );
      expect(outcome).toMatchObject({
        ok: true,
        data: { SERVICE_TOKEN: { source: "context", preview: "…1234" } },
      });
      expect(plugin.protocolVersion).toBe("1.1");
    });
  });
});
