// py-weather (protocol 1.1, Python stdlib) driven as a real child process over raw NDJSON.

import { describe, expect, it } from "vitest";
import { needs } from "../../support/toolchains.js";
import { exampleDir, pluginEnv, run, startPython } from "./example-plugins.js";

const EXAMPLE = "py-weather";
const SCRIPT = "weather_plugin.py";
const SECRET = "sk_live_s3cr3t_9876";

function start(env: NodeJS.ProcessEnv = pluginEnv({}, ["WEATHER_API_KEY", "WEATHER_UNITS"])) {
  return startPython(EXAMPLE, SCRIPT, env);
}

const python = needs("python3");

describe.skipIf(python.skip)(`py-weather example${python.reason}`, () => {
  it("describes itself with a bare manifest: no name, parameters arrays, credentials", async () => {
    const plugin = start();
    const { message } = await plugin.request("describe");
    const manifest = message.result as Record<string, unknown>;
    expect(manifest).not.toHaveProperty("name");
    expect(manifest).not.toHaveProperty("manifest");
    expect(manifest.version).toBe("0.1.0");
    const tools = manifest.tools as { name: string; parameters: unknown[] }[];
    expect(tools.map((t) => t.name)).toEqual(["get_weather", "forecast", "api_key_status"]);
    for (const tool of tools) expect(Array.isArray(tool.parameters)).toBe(true);
    expect(manifest.credentials).toContainEqual(
      expect.objectContaining({ name: "WEATHER_API_KEY", sensitive: true }),
    );
  });

  it("answers initialize and shutdown with -32601, so the host stays on protocol 1.1", async () => {
    const plugin = start();
    const init = await plugin.request(
      "initialize",
      { protocolVersion: "2.0", client_capabilities: {} },
      0,
    );
    expect(init.message).toMatchObject({ id: 0, error: { code: -32601 } });
    const shutdown = await plugin.request("shutdown", {});
    expect(shutdown.message).toMatchObject({ error: { code: -32601 } });
  });

  it("reads the credential from the invoke context and returns only a redacted preview", async () => {
    const plugin = start();
    const frame = await plugin.invoke(
      "get_weather",
      { city: "Tokyo" },
      { credentials: { WEATHER_API_KEY: SECRET } },
    );
    expect(frame.message.result).toMatchObject({
      success: true,
      tool: "get_weather",
      data: { city: "Tokyo", api_key: "sk_…9876", credential_source: "context", units: "metric" },
    });
    expect(frame.line).not.toContain("s3cr3t");
  });

  it("falls back to the environment variable when the context has no credential", async () => {
    const plugin = start(pluginEnv({ WEATHER_API_KEY: "sk_env_1111", WEATHER_UNITS: "imperial" }));
    const frame = await plugin.invoke("get_weather", { city: "Oslo" }, {});
    expect(frame.message.result).toMatchObject({
      success: true,
      data: { credential_source: "env", units: "imperial", temperature: { unit: "F" } },
    });
  });

  it("reports expected failures as success:false, not as JSON-RPC errors", async () => {
    const plugin = start();
    const missingKey = await plugin.invoke("get_weather", { city: "Oslo" }, {});
    expect(missingKey.message.result).toEqual({
      success: false,
      error: "WEATHER_API_KEY not configured",
      tool: "get_weather",
    });
    const unknownCity = await plugin.invoke(
      "get_weather",
      { city: "Atlantis" },
      { credentials: { WEATHER_API_KEY: SECRET } },
    );
    expect(unknownCity.message.result).toMatchObject({
      success: false,
      error: "city not found: Atlantis",
    });
  });

  it("uses -32601 for an unknown tool, -32602 for bad arguments and -32700 for a broken line", async () => {
    const plugin = start();
    const unknownTool = await plugin.invoke("snow_depth", {}, {});
    expect(unknownTool.message).toMatchObject({ error: { code: -32601 } });
    const unknownArgument = await plugin.invoke("get_weather", { city: "Oslo", country: "NO" }, {});
    expect(unknownArgument.message).toMatchObject({ error: { code: -32602 } });
    const badDays = await plugin.invoke(
      "forecast",
      { city: "Oslo", days: 30 },
      { credentials: { WEATHER_API_KEY: SECRET } },
    );
    expect(badDays.message).toMatchObject({ error: { code: -32602 } });
    plugin.sendLine("this is not json");
    const nullId = await plugin.waitFor((f) => f.message.id === null, "parse error with id null");
    expect(nullId.message).toMatchObject({ error: { code: -32700 } });
  });

  it("echoes string and integer request ids with their type", async () => {
    const plugin = start();
    const asString = await plugin.request("health", undefined, "7");
    const asNumber = await plugin.request("health", undefined, 7);
    expect(asString.message.id).toBe("7");
    expect(asNumber.message.id).toBe(7);
    expect(asNumber.message.result).toMatchObject({ status: "healthy" });
  });

  it("serves a forecast with array parameters declared through items_type", async () => {
    const plugin = start();
    const frame = await plugin.invoke(
      "forecast",
      { city: "Paris", days: 2, fields: ["wind"] },
      { credentials: { WEATHER_API_KEY: SECRET } },
    );
    const data = (frame.message.result as { data: { days: Record<string, unknown>[] } }).data;
    expect(data.days).toHaveLength(2);
    expect(Object.keys(data.days[0] ?? {}).sort()).toEqual(["day", "wind_kph"]);
  });

  it("exits 0 when stdin closes, writing the answers it already owes", async () => {
    const plugin = start();
    const pending = plugin.invoke("api_key_status", {}, {});
    const exit = await plugin.close();
    expect(exit).toEqual({ code: 0, signal: null });
    expect((await pending).message.result).toMatchObject({ success: true });
  });

  it("passes its own unittest suite", async () => {
    const result = await run(
      "python3",
      ["-m", "unittest"],
      exampleDir(EXAMPLE),
      pluginEnv(),
      20_000,
    );
    expect(result.stderr).toMatch(/OK/);
    expect(result.code).toBe(0);
  });
});
