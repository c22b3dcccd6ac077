// The test kit reads recordings with the fixture commands' reader: an upstream recording's
// events (named under `event`) replay into a mounted bundle; a broken file or a mock-answer
// file is an error that says what is wrong.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { mountBundle, readRecording } from "../../src/test-kit/index.js";
import { tempDir } from "../executa-init/helpers.js";
import { MANIFEST } from "./project.js";

const RECORDINGS = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../fixture/recordings",
);

describe("readRecording + harness.events.replay", () => {
  it("replays the events of an upstream recording into the bundle's subscribers", async () => {
    const recording = await readRecording(path.join(RECORDINGS, "upstream-session.jsonl"));
    expect(recording.calls.map((c) => `${c.ns}.${c.method}`)).toEqual([
      "window.hello",
      "storage.get",
      "tools.invoke",
      "fs.read",
      "storage.set",
    ]);
    const harness = await mountBundle({ manifest: MANIFEST, projectDir: tempDir("kit-rec-") });
    const seen: unknown[] = [];
    harness.runtime.on("entry_payload", (payload) => seen.push(payload));
    expect(harness.events.replay(recording)).toBe(1);
    expect(seen).toEqual([{ mode: "draft" }]);
  });

  it("refuses a broken recording and a mock-answer file, saying why", async () => {
    const dir = tempDir("kit-rec-");
    const broken = path.join(dir, "broken.jsonl");
    writeFileSync(broken, '{"t":0,"kind":"meta","format":1}\n{not json\n');
    await expect(readRecording(broken)).rejects.toThrow(
      /broken\.jsonl: 1 broken line\(s\), first line 2: not valid JSON/,
    );
    await expect(readRecording(path.join(RECORDINGS, "mock-answers.jsonl"))).rejects.toThrow(
      "mock-answers.jsonl is a mock-answer file ({ns, method, result} lines), not a recording",
    );
  });
});
