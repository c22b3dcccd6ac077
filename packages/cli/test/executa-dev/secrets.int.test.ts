// Attack: run the real `executa dev` with live-looking secrets (a --credential value, an
// --account token, the per-invoke JWTs the host mints; with --storage real against a real Nexus,
// the saved PAT and the storage token) and make the plugin carry them around;
// then search everything it wrote but the plugin's own answer on stdout — the --trace lines,
// the plugin's stderr lines, the --record transcript — for any of them.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, onTestFinished } from "vitest";
import { savedAccountEnv, startStorageNexus } from "../real-storage/storage-nexus.js";
import { example, runCli } from "./helpers.js";

const KITCHEN = example("ts-kitchen-sink");
const work = mkdtempSync(path.join(tmpdir(), "executa-dev-secrets-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const CREDENTIAL = "kt_live_attack_credential_5151";
const ACCOUNT_TOKEN = "ya29.attack-account-token-9191";
/** A JWT anywhere: the window and per-invoke tokens are JWTs. */
const JWT = /eyJ[\w-]{8,}\.eyJ[\w-]{8,}\.[\w-]{16,}/;

describe("executa dev never shows a live secret in a trace, a transcript or a log line", () => {
  it("hides --credential and --account values and per-invoke tokens in --trace and --record", async () => {
    const file = path.join(work, "attack.jsonl");
    const r = await runCli([
      "executa",
      "dev",
      "--dir",
      KITCHEN,
      "--credential",
      `KITCHEN_TOKEN=${CREDENTIAL}`,
      "--account",
      `google=home,token=${ACCOUNT_TOKEN}`,
      "--invoke",
      "remember",
      "--args",
      JSON.stringify({ key: "k", value: `${CREDENTIAL} and ${ACCOUNT_TOKEN}` }),
      "--trace",
      "--record",
      file,
      "--json",
    ]);
    expect(r.code, r.stderr).toBe(0);
    const record = readFileSync(file, "utf8");
    // The secrets did travel: the trace shows the storage/set that carried them, redacted.
    expect(r.stderr).toMatch(/\[trace\].*"method":"storage\/set"/);
    expect(record).toContain('"method":"storage/set"');
    for (const [where, text] of [
      ["stderr (trace and plugin lines)", r.stderr],
      ["the --record transcript", record],
    ] as const) {
      expect(text.includes(CREDENTIAL), `${where} holds the --credential value`).toBe(false);
      expect(text.includes(ACCOUNT_TOKEN), `${where} holds the --account token`).toBe(false);
      expect(JWT.test(text), `${where} holds a JWT`).toBe(false);
    }
  });
});

describe("executa dev --storage real never shows the PAT or a storage token", () => {
  it("hides them in --trace, --record and the plugin's lines while the value round-trips through the server", async () => {
    const nexus = await startStorageNexus();
    onTestFinished(() => nexus.close());
    const { pat } = await nexus.developer("attacker@example.com");
    const env = await savedAccountEnv(path.join(work, "config"), nexus.url, pat);
    const file = path.join(work, "real.jsonl");
    // The plugin stores the PAT itself, so it travels through every frame of the call.
    const r = await runCli(
      [
        "executa",
        "dev",
        "--dir",
        KITCHEN,
        "--storage",
        "real",
        "--invoke",
        "remember",
        "--args",
        JSON.stringify({ key: "k", value: `carried ${pat}` }),
        "--trace",
        "--record",
        file,
      ],
      { env },
    );
    expect(r.code, r.stderr).toBe(0);
    // The plugin's own answer: what it read back from the server.
    expect(r.stdout).toContain("carried anna_pat_");
    const record = readFileSync(file, "utf8");
    expect(r.stderr).toMatch(/\[trace\].*"method":"storage\/set"/);
    for (const [where, text] of [
      ["stderr (trace and plugin lines)", r.stderr],
      ["the --record transcript", record],
    ] as const) {
      expect(text.includes(pat), `${where} holds the PAT`).toBe(false);
      expect(text.includes("anna_pat_"), `${where} holds a PAT`).toBe(false);
      expect(JWT.test(text), `${where} holds a JWT`).toBe(false);
    }
  });
});
