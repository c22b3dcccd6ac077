// docs/executa-dev.md walks a newcomer from `executa init` to a passing invoke of a plugin that
// samples and stores. This test follows it: the code, the fixture and the commands are taken from
// the guide itself, so the guide cannot drift from what works. (`npm install` and `tsc` are
// replaced by a symlink to the SDK and an esbuild transform, to stay fast and offline.)
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { transformSync } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fencedBlocks, guideCommand, readGuide } from "../guide-doc.js";
import { REPO, jsonLine, runCli } from "./helpers.js";

const GUIDE = readGuide("executa-dev.md");
const work = mkdtempSync(path.join(tmpdir(), "executa-dev-guide-"));
const project = path.join(work, "notes-digest");
afterAll(() => rmSync(work, { recursive: true, force: true }));

beforeAll(async () => {
  const init = await runCli(guideCommand(GUIDE, "executa init"), { cwd: work });
  expect(init.code, init.stderr).toBe(0);
  // `npm install`: the SDK from this checkout.
  mkdirSync(path.join(project, "node_modules/@anna-ai"), { recursive: true });
  symlinkSync(
    path.join(REPO, "packages/executa-sdk"),
    path.join(project, "node_modules/@anna-ai/executa-sdk"),
  );
  // Section 3: declare the capabilities and add the `digest` tool, as the guide shows.
  const ts = fencedBlocks(GUIDE, "ts");
  const capabilities = ts.find((b) => b.includes("host_capabilities"));
  const tool = ts.find((b) => b.includes("digest: {"));
  if (capabilities === undefined || tool === undefined) throw new Error("guide code not found");
  const capabilityLine = capabilities.split("\n").find((l) => l.includes("host_capabilities"));
  const mainTs = path.join(project, "src/main.ts");
  let source = readFileSync(mainTs, "utf8");
  source = source.replace(/(\n {4}description: [^\n]*\n)/, `$1${capabilityLine}\n`);
  source = source.replace(
    /\n {2}},\n\}\);\n\nawait plugin\.serve\(\);/,
    `\n${tool}  },\n});\n\nawait plugin.serve();`,
  );
  expect(source).toContain("ctx.sampling.createMessage");
  // `npm run build`
  const js = transformSync(source, { loader: "ts", format: "esm", target: "node20" }).code;
  mkdirSync(path.join(project, "dist"), { recursive: true });
  writeFileSync(path.join(project, "dist/main.js"), js);
  // Section 4: the fixture.
  mkdirSync(path.join(project, "fixtures"));
  writeFileSync(
    path.join(project, "fixtures/sampling.jsonl"),
    fencedBlocks(GUIDE, "jsonl")[0] as string,
  );
});

describe("the executa dev guide", () => {
  it("hello works right after init", async () => {
    const r = await runCli([...guideCommand(GUIDE, "--invoke hello"), "--json"], { cwd: project });
    expect(jsonLine(r)).toEqual({ message: "Hello, Ada!", greeting_source: "default" });
  });

  it("digest fails with sampling_disabled until sampling is mocked, then samples and stores", async () => {
    const [off, on] = await Promise.all([
      runCli(guideCommand(GUIDE, '--invoke digest --args \'{"note":"remember to buy milk'), {
        cwd: project,
      }),
      runCli(guideCommand(GUIDE, "--mock-sampling fixtures/sampling.jsonl --json"), {
        cwd: project,
      }),
    ]);
    expect(off.code).toBe(1);
    expect(jsonLine(off)).toEqual({
      success: false,
      error: "sampling_disabled",
      data: { code: -32008, errorCode: "SAMPLING_NOT_NEGOTIATED" },
    });
    expect(on.code, on.stderr).toBe(0);
    expect(jsonLine(on)).toMatchObject({
      digest: "Buy milk on the way home.",
      model: "mock-digest",
      etag: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
  });
});
