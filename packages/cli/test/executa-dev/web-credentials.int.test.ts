// executa dev serves web/* and credentials/* offline: search from a --mock-web file, fetch for
// real behind the SSRF policy, connected accounts from --account, and the grant flags. The
// kitchen sink's own SDK code makes the calls.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURES, example, jsonLine, runCli } from "./helpers.js";

const KITCHEN = example("ts-kitchen-sink");
const WEB_FIXTURE = path.join(FIXTURES, "web.jsonl");

async function invoke(tool: string, args: unknown, ...flags: string[]) {
  const r = await runCli([
    "executa",
    "dev",
    "--dir",
    KITCHEN,
    ...flags,
    "--invoke",
    tool,
    "--args",
    JSON.stringify(args),
    "--json",
  ]);
  return { ...r, body: r.code === 2 ? undefined : (jsonLine(r) as Record<string, unknown>) };
}

/**
 * The error the host answered a reverse call with, from the --trace lines on stderr (a long
 * frame is shortened there, so only the error frame itself is parsed).
 */
function hostError(stderr: string, method: string): unknown {
  const lines = stderr.split("\n").filter((l) => l.startsWith("[trace]"));
  const id = lines
    .find((l) => l.includes("plugin → host") && l.includes(`"method":"${method}"`))
    ?.match(/"id":("[^"]+"|\d+)/)?.[1];
  const answer = lines.find((l) => l.includes("host → plugin") && l.includes(`"id":${id},"error"`));
  const frame =
    answer === undefined ? {} : (JSON.parse(answer.slice(answer.indexOf("{"))) as object);
  return (frame as { error?: unknown }).error;
}

describe("executa dev: web/* and credentials/*", () => {
  it("--mock-web answers web/search from the file; without it the error names the flag", async () => {
    const [mocked, bare] = await Promise.all([
      invoke("search_web", { query: "tides" }, "--mock-web", WEB_FIXTURE),
      invoke("search_web", { query: "tides" }, "--trace"),
    ]);
    expect(mocked.code).toBe(0);
    expect(mocked.body).toEqual({
      provider_tier: "mock-basic",
      results: [
        {
          title: "Tide tables",
          url: "https://tides.example/tables",
          snippet: "High and low water, by port.",
        },
        {
          title: "Why tides happen",
          url: "https://science.example/tides",
          snippet: "The moon pulls the sea.",
        },
      ],
    });
    expect(bare.code).toBe(1);
    expect(hostError(bare.stderr, "web/search")).toMatchObject({
      code: -32523,
      message: expect.stringContaining("--mock-web <fixture.jsonl>"),
      data: { errorCode: "WEB_PROVIDER_ERROR" },
    });
  });

  it("web/fetch goes out for real behind the SSRF policy: loopback and metadata are blocked", async () => {
    const r = await invoke("read_page", {
      urls: ["http://127.0.0.1:9/x", "http://169.254.169.254/latest/meta-data"],
    });
    expect(r.code).toBe(0);
    expect(r.body).toMatchObject({
      pages: [
        { url: "http://127.0.0.1:9/x", ok: false, error: "SSRF_BLOCKED" },
        { url: "http://169.254.169.254/latest/meta-data", ok: false, error: "SSRF_BLOCKED" },
      ],
    });
  });

  it("--no-web answers -32527 and --no-grant web -32521", async () => {
    const args = { urls: ["https://example.com/"] };
    const [off, withdrawn] = await Promise.all([
      invoke("read_page", args, "--no-web", "--trace"),
      invoke("read_page", args, "--no-grant", "web", "--trace"),
    ]);
    expect(off.code).toBe(1);
    // The --json line itself carries the host's code, so a script needs no --trace for it.
    expect(off.body).toEqual({
      success: false,
      error: expect.stringContaining("web"),
      data: { code: -32527, errorCode: "WEB_NOT_NEGOTIATED" },
    });
    expect(withdrawn.body).toMatchObject({
      success: false,
      data: { code: -32521, errorCode: "WEB_NOT_GRANTED" },
    });
    expect(hostError(off.stderr, "web/fetch")).toMatchObject({
      code: -32527,
      data: { errorCode: "WEB_NOT_NEGOTIATED" },
    });
    expect(withdrawn.code).toBe(1);
    expect(hostError(withdrawn.stderr, "web/fetch")).toMatchObject({
      code: -32521,
      data: { errorCode: "WEB_NOT_GRANTED" },
    });
  });

  it("--account configures the connected accounts; the token stays inside the plugin", async () => {
    const accounts = [
      "--account",
      "google=work,email=me@work.example",
      "--account",
      "google=home,default,token=ya29.dev-token-4321",
    ];
    const [byDefault, named] = await Promise.all([
      invoke("account_token", {}, ...accounts),
      invoke("account_token", { account: "work" }, ...accounts),
    ]);
    expect(byDefault.code).toBe(0);
    expect(byDefault.body).toMatchObject({
      accounts: [
        { account_id: "work", is_default: false },
        { account_id: "home", is_default: true },
      ],
      account_id: "home",
      preview: "ya29…4321",
    });
    expect(byDefault.stdout).not.toContain("dev-token");
    expect(named.code).toBe(0);
    expect(named.body).toMatchObject({ account_id: "work" });
    expect(String(named.body?.preview)).toMatch(/^dev-…/);
  });

  it("--no-grant credentials withholds the token (-32061); a malformed --account exits 2", async () => {
    const [withheld, malformed] = await Promise.all([
      invoke(
        "account_token",
        {},
        "--account",
        "google=home",
        "--no-grant",
        "credentials",
        "--trace",
      ),
      invoke("account_token", {}, "--account", "google"),
    ]);
    expect(withheld.code).toBe(1);
    expect(hostError(withheld.stderr, "credentials/listAccounts")).toMatchObject({
      code: -32061,
      message: expect.stringContaining("no credentials_token"),
      data: { errorCode: "CREDENTIALS_NOT_GRANTED" },
    });
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toMatch(/--account 'google' is not <provider>=<account_id>/);
  });
});
