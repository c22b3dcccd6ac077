// The example plugins in Python and Go under the built CLI: protocol 1.1 and 2.0, credentials,
// reverse calls with integer and string ids, and --plugin picking one entry in a folder of
// several. Go examples are built once into a temp dir and started with --spec.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  FIXTURES,
  GO_SKIP_REASON,
  GO_VERSION,
  buildGo,
  example,
  jsonLine,
  needs,
  runCli,
} from "./helpers.js";

const WEATHER = example("py-weather");
const work = mkdtempSync(path.join(tmpdir(), "executa-dev-lang-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const python = needs("python3");
describe.skipIf(python.skip)(
  `executa dev with a Python 1.1 plugin (py-weather)${python.reason}`,
  { concurrent: true },
  () => {
    it("invokes with a --credential and reports protocol 1.1 in the banner", async () => {
      const [oneShot, repl] = await Promise.all([
        runCli([
          "executa",
          "dev",
          "--dir",
          WEATHER,
          "--invoke",
          "get_weather",
          "--args",
          '{"city":"Tokyo"}',
          "--credential",
          "WEATHER_API_KEY=sk_test_1234",
          "--json",
        ]),
        runCli(["executa", "dev", "--dir", WEATHER], { stdin: "tools\n" }),
      ]);
      expect(oneShot.code).toBe(0);
      expect(jsonLine(oneShot)).toMatchObject({
        city: "Tokyo",
        api_key: "sk_…1234",
        credential_source: "context",
      });
      expect(repl.stdout).toMatch(/protocol 1\.1\s+tools get_weather, forecast, api_key_status/);
    });

    it("passes a declared credential from the environment and fails without one", async () => {
      const [fromEnv, missing] = await Promise.all([
        runCli(["executa", "dev", "--dir", WEATHER, "--invoke", "api_key_status", "--json"], {
          env: { WEATHER_API_KEY: "sk_env_5678" },
        }),
        runCli([
          "executa",
          "dev",
          "--dir",
          WEATHER,
          "--invoke",
          "get_weather",
          "--args",
          '{"city":"Paris"}',
          "--json",
        ]),
      ]);
      expect(jsonLine(fromEnv)).toMatchObject({ configured: true, source: "context" });
      expect(missing.code).toBe(1);
      expect(jsonLine(missing)).toEqual({
        success: false,
        error: "WEATHER_API_KEY not configured",
      });
    });
  },
);

describe.skipIf(GO_VERSION === undefined)(
  `executa dev with Go plugins (${GO_VERSION ?? GO_SKIP_REASON})`,
  () => {
    let helloSpec = "";
    beforeAll(() => {
      const binary = buildGo("go-hello", work);
      helloSpec = `tool_id=tool-examples-go-hello-00000001,type=binary,dir=${example("go-hello")},command=${binary}`;
    });

    it("go-hello: storage with integer reverse ids, sampling with string ids, credentials", async () => {
      const dev = (...args: string[]) => runCli(["executa", "dev", "--spec", helloSpec, ...args]);
      const [remember, ask, greet, askOff] = await Promise.all([
        dev("--invoke", "remember", "--args", '{"key":"k","value":"v"}', "--json"),
        dev(
          "--mock-sampling",
          path.join(FIXTURES, "sampling.jsonl"),
          "--invoke",
          "ask",
          "--args",
          '{"question":"what is the weather?"}',
          "--json",
        ),
        dev(
          "--invoke",
          "greet",
          "--args",
          '{"name":"Ann"}',
          "--credential",
          "GREETING_PREFIX=Howdy",
          "--json",
        ),
        dev("--invoke", "ask", "--args", '{"question":"hi"}', "--json"),
      ]);
      expect(jsonLine(remember)).toMatchObject({ exists: true, key: "memory/k", value: "v" });
      expect(ask.code).toBe(0);
      expect(JSON.stringify(jsonLine(ask))).toContain("sunny all week");
      expect(jsonLine(greet)).toEqual({ greeting: "Howdy, Ann!", prefix_source: "context" });
      expect(askOff.code).toBe(1);
      expect(JSON.stringify(jsonLine(askOff))).toMatch(/sampling_disabled|-32008/);
    });

    it("go-hello from its folder (go run .) answers describe", async () => {
      const r = await runCli(
        ["executa", "dev", "--dir", example("go-hello"), "--describe", "--json"],
        {
          env: { GOFLAGS: "-mod=mod", GOTOOLCHAIN: "local" },
        },
      );
      expect(r.code).toBe(0);
      expect((jsonLine(r) as { tools: Array<{ name: string }> }).tools.map((t) => t.name)).toEqual([
        "greet",
        "ask",
        "remember",
      ]);
    });

    it("--plugin picks one of the plugins in go-multi", async () => {
      const dir = example("go-multi");
      const env = { GOFLAGS: "-mod=mod", GOTOOLCHAIN: "local" };
      const [credential, text] = await Promise.all([
        runCli(
          [
            "executa",
            "dev",
            "--dir",
            dir,
            "--plugin",
            "credential_plugin.go",
            "--invoke",
            "check_credentials",
            "--credential",
            "SERVICE_TOKEN=st_abcdef123",
            "--credential",
            "SERVICE_REGION=eu-west-1",
            "--json",
          ],
          { env },
        ),
        runCli(["executa", "dev", "--dir", dir, "--plugin", "main.go", "--describe", "--json"], {
          env,
        }),
      ]);
      expect(credential.code).toBe(0);
      expect(jsonLine(credential)).toMatchObject({
        SERVICE_TOKEN: { source: "context", preview: "…f123" },
        SERVICE_REGION: { source: "context" },
      });
      expect(
        (jsonLine(text) as { tools: Array<{ name: string }> }).tools.map((t) => t.name),
      ).toEqual(expect.arrayContaining(["upper", "sha256"]));
    });
  },
);
