// The service flags change what the plugin sees on its reverse calls: modes (off, memory, mock,
// synthetic), grants (--grant/--no-grant) and storage scopes. py-studio passes reverse-call
// errors through as its invoke's JSON-RPC error, so the codes are visible end to end.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURES, example, jsonLine, runCli, needs } from "./helpers.js";

const python = needs("python3");
const STUDIO = example("py-studio");
const KITCHEN = example("ts-kitchen-sink");
const fixture = (name: string) => path.join(FIXTURES, name);

async function invoke(dir: string, tool: string, args: unknown, ...flags: string[]) {
  const r = await runCli([
    "executa",
    "dev",
    "--dir",
    dir,
    ...flags,
    "--invoke",
    tool,
    "--args",
    JSON.stringify(args),
    "--json",
  ]);
  return { code: r.code, body: jsonLine(r) as Record<string, unknown>, stderr: r.stderr };
}

// Sequential tests: each starts several CLI+Python processes at once already.
describe("executa dev services", () => {
  it.skipIf(python.skip)(
    `storage is in memory by default: KV and files (PUT to a loopback URL) work${python.reason}`,
    async () => {
      const [kv, file] = await Promise.all([
        invoke(STUDIO, "note_add", { notebook: "n", text: "x" }),
        invoke(STUDIO, "save_file", { path: "docs/a.txt", text: "hello" }),
      ]);
      expect(kv.code).toBe(0);
      expect(kv.body).toMatchObject({ notebook: "n", count: 1, attempts: 1 });
      expect(file.code).toBe(0);
      expect(file.body).toMatchObject({ path: "docs/a.txt", size_bytes: 5 });
      expect(String(file.body.download_url)).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    },
  );

  it("the TypeScript SDK round-trips storage and files through the memory services", async () => {
    const [kv, file] = await Promise.all([
      invoke(KITCHEN, "remember", { key: "k", value: "v" }),
      invoke(KITCHEN, "save_file", { path: "a/b.txt", content: "hello" }),
    ]);
    expect(kv.body).toMatchObject({ read: "v", deleted: true });
    expect(file.body).toMatchObject({ stored: { path: "a/b.txt", size_bytes: 5 } });
  });

  it.skipIf(python.skip)(`--storage off answers -32021${python.reason}`, async () => {
    const r = await invoke(STUDIO, "note_add", { notebook: "n", text: "x" }, "--storage", "off");
    expect(r.code).toBe(1);
    expect(r.body).toMatchObject({ code: -32021, data: { errorCode: "STORAGE_NOT_GRANTED" } });
  });

  it.skipIf(python.skip)(
    `--storage mock answers from the fixture and names a line to add for unmatched calls${python.reason}`,
    async () => {
      const flags = ["--storage", "mock", "--mock-storage", fixture("storage.jsonl")];
      const [added, listed] = await Promise.all([
        invoke(STUDIO, "note_add", { notebook: "mock", text: "x" }, ...flags),
        invoke(STUDIO, "note_list", {}, ...flags),
      ]);
      expect(added.code).toBe(0);
      expect(added.body).toMatchObject({ notebook: "mock", count: 2 });
      expect(listed.code).toBe(1);
      expect(listed.body).toMatchObject({ code: -32029, data: { reason: "MOCK_NO_MATCH" } });
      expect(String(listed.body.message)).toContain('{"ns":"storage","method":"list"');
    },
  );

  it.skipIf(python.skip)(
    `--storage-scopes tool refuses the user scope with the router's message${python.reason}`,
    async () => {
      const r = await invoke(
        STUDIO,
        "save_file",
        { path: "a.txt", text: "x", scope: "user" },
        "--storage-scopes",
        "tool",
      );
      expect(r.body).toMatchObject({ code: -32021 });
      expect(String(r.body.message)).toBe(
        "storage_token does not permit scope='user'; allowed=['tool']",
      );
    },
  );

  it.skipIf(python.skip)(
    `sampling is off by default (-32008 sampling_disabled)${python.reason}`,
    async () => {
      const r = await invoke(STUDIO, "summarize", { text: "x" });
      expect(r.body).toMatchObject({ code: -32008, message: "sampling_disabled" });
    },
  );

  it.skipIf(python.skip)(`--no-sampling is off too${python.reason}`, async () => {
    const r = await invoke(STUDIO, "summarize", { text: "x" }, "--no-sampling");
    expect(r.body).toMatchObject({ code: -32008 });
  });

  it.skipIf(python.skip)(
    `--mock-sampling: first matching line, either spelling, errors as written, synthetic otherwise${python.reason}`,
    async () => {
      const flags = ["--mock-sampling", fixture("sampling.jsonl")];
      const [weather, rainbow, overloaded, other] = await Promise.all([
        invoke(STUDIO, "summarize", { text: "the weather today" }, ...flags),
        invoke(STUDIO, "summarize", { text: "a rainbow" }, ...flags),
        invoke(STUDIO, "summarize", { text: "overloaded" }, ...flags),
        invoke(STUDIO, "summarize", { text: "something else" }, ...flags),
      ]);
      expect(weather.body).toMatchObject({ summary: "sunny all week", model: "mock-weather" });
      expect(rainbow.body).toMatchObject({ summary: "seven colours" });
      expect(overloaded.code).toBe(1);
      expect(overloaded.body).toMatchObject({ code: -32003, message: "provider overloaded" });
      expect(other.code).toBe(0);
      expect(String(other.body.summary)).toContain("something else");
    },
  );

  it.skipIf(python.skip)(
    `--sampling-unsupported-format makes json_schema downgrade per onUnsupported${python.reason}`,
    async () => {
      const flags = ["--mock-sampling", fixture("empty.jsonl")];
      const [normal, unsupported] = await Promise.all([
        invoke(STUDIO, "extract", { text: "Ann is 3" }, ...flags),
        invoke(STUDIO, "extract", { text: "Ann is 3" }, ...flags, "--sampling-unsupported-format"),
      ]);
      expect(normal.body).toMatchObject({
        response_format: { applied: "json_schema", downgraded: false },
      });
      expect(unsupported.body).toMatchObject({
        response_format: { applied: "json_object", downgraded: true },
      });
    },
  );

  it.skipIf(python.skip)(
    `agent is off by default (-32041) and --mock-agent buffers the fixture's frames${python.reason}`,
    async () => {
      const [off, run, complete] = await Promise.all([
        invoke(STUDIO, "plan", { goal: "x" }),
        invoke(STUDIO, "plan", { goal: "x" }, "--mock-agent", fixture("agent.jsonl")),
        invoke(
          STUDIO,
          "ask_complete",
          { prompt: "the capital of France" },
          "--mock-agent",
          fixture("agent.jsonl"),
        ),
      ]);
      expect(off.body).toMatchObject({ code: -32041, data: { errorCode: "AGENT_NOT_GRANTED" } });
      expect(run.body).toMatchObject({ plan: "step one, step two", frames: 2 });
      expect(complete.body).toMatchObject({ answer: "Paris" });
    },
  );

  it.skipIf(python.skip)(
    `image and upload are off by default (-32101, -32201) and synthetic under --mock-*${python.reason}`,
    async () => {
      const mock = [
        "--mock-image",
        fixture("empty.jsonl"),
        "--mock-upload",
        fixture("empty.jsonl"),
      ];
      const [imageOff, uploadOff, image, upload] = await Promise.all([
        invoke(STUDIO, "poster", { prompt: "a cat" }, "--no-image"),
        invoke(STUDIO, "share_text", { filename: "a.txt", text: "x" }, "--no-upload"),
        invoke(STUDIO, "poster", { prompt: "a cat" }, ...mock),
        invoke(STUDIO, "share_text", { filename: "a.txt", text: "x" }, ...mock),
      ]);
      expect(imageOff.body).toMatchObject({ code: -32101 });
      expect(uploadOff.body).toMatchObject({ code: -32201 });
      expect(image.code).toBe(0);
      expect(String((image.body.urls as string[])[0])).toMatch(
        /^http:\/\/127\.0\.0\.1:\d+\/.*\.png/,
      );
      expect(upload.code).toBe(0);
      expect(String(upload.body.download_url)).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    },
  );

  it.skipIf(python.skip)(
    `embeddings are synthetic by default, off with --no-embeddings (-32507)${python.reason}`,
    async () => {
      const [on, off] = await Promise.all([
        invoke(STUDIO, "embed", { texts: ["a", "b"] }),
        invoke(STUDIO, "embed", { texts: ["a"] }, "--no-embeddings"),
      ]);
      expect(on.body).toMatchObject({ count: 2, dimensions: 1536 });
      expect(off.body).toMatchObject({ code: -32507 });
    },
  );

  it.skipIf(python.skip)(
    `grants on/off change the codes the plugin sees${python.reason}`,
    async () => {
      const sampling = ["--mock-sampling", fixture("empty.jsonl")];
      const [granted, noGrant, onlySampling, storageWithout] = await Promise.all([
        invoke(STUDIO, "summarize", { text: "x" }, ...sampling),
        invoke(STUDIO, "summarize", { text: "x" }, ...sampling, "--no-grant", "sampling"),
        invoke(STUDIO, "summarize", { text: "x" }, ...sampling, "--grant", "sampling"),
        invoke(STUDIO, "note_add", { notebook: "n", text: "x" }, "--grant", "sampling"),
      ]);
      expect(granted.code).toBe(0);
      expect(noGrant.body).toMatchObject({
        code: -32001,
        data: { errorCode: "SAMPLING_NOT_GRANTED" },
      });
      expect(onlySampling.code).toBe(0);
      expect(storageWithout.body).toMatchObject({ code: -32021 });
      expect(String(storageWithout.body.message)).toMatch(/has not granted storage/);
    },
  );

  it.skipIf(python.skip)(
    `--no-grant embeddings and --no-grant image give the NOT_GRANTED codes${python.reason}`,
    async () => {
      const [embed, image] = await Promise.all([
        invoke(STUDIO, "embed", { texts: ["a"] }, "--no-grant", "embeddings"),
        invoke(
          STUDIO,
          "poster",
          { prompt: "x" },
          "--mock-image",
          fixture("empty.jsonl"),
          "--no-grant",
          "image",
        ),
      ]);
      expect(embed.body).toMatchObject({ code: -32501 });
      expect(image.body).toMatchObject({ code: -32101, data: { errorCode: "IMAGE_NOT_GRANTED" } });
    },
  );

  it.skipIf(python.skip)(
    `plugins get per-invoke tokens for the families they declared${python.reason}`,
    async () => {
      const r = await invoke(STUDIO, "context_report", {});
      expect(r.body.context_keys).toEqual(
        expect.arrayContaining(["sampling_token", "storage_token", "image_token", "upload_token"]),
      );
    },
  );

  it.skipIf(python.skip)(
    `--mock-image, --mock-upload and --mock-embeddings answer from matching lines${python.reason}`,
    async () => {
      const media = fixture("media.jsonl");
      const flags = ["--mock-image", media, "--mock-upload", media, "--mock-embeddings", media];
      const [image, refused, upload, pinned, other] = await Promise.all([
        invoke(STUDIO, "poster", { prompt: "a lighthouse" }, ...flags),
        invoke(STUDIO, "poster", { prompt: "forbidden" }, ...flags),
        invoke(STUDIO, "share_text", { filename: "fixed.txt", text: "x" }, ...flags),
        invoke(STUDIO, "embed", { texts: ["pinned"] }, ...flags),
        invoke(STUDIO, "embed", { texts: ["other"] }, ...flags),
      ]);
      expect(image.body).toEqual({
        urls: ["https://cdn.example.test/lighthouse.png"],
        model: "mock-painter",
        count: 1,
      });
      expect(refused.body).toMatchObject({ code: -32103, message: "content policy" });
      expect(upload.body).toMatchObject({ download_url: "https://cdn.example.test/fixed.txt" });
      expect(pinned.body).toMatchObject({ dimensions: 3 });
      expect(other.body).toMatchObject({ dimensions: 1536 });
    },
  );

  it.skipIf(python.skip)(
    `explicit defaults: --storage memory, --no-agent, --no-image, --no-upload${python.reason}`,
    async () => {
      const r = await runCli(
        [
          "executa",
          "dev",
          "--dir",
          STUDIO,
          "--storage",
          "memory",
          "--no-agent",
          "--no-image",
          "--no-upload",
        ],
        {
          stdin:
            'invoke note_add {"notebook":"n","text":"x"}\ninvoke note_add {"notebook":"n","text":"y"}\ninvoke plan {"goal":"x"}\n',
        },
      );
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(
        /services sampling=off\s+agent=off\s+storage=memory\s+image=off\s+upload=off/,
      );
      expect(r.stdout).toContain('"count": 2');
      expect(r.stdout).toMatch(/plan error -32041 AGENT_NOT_GRANTED/);
    },
  );
});
