// docs/conformance.md, followed: the commands it shows run green from the repository root, and
// every check id it documents is one the suite reports.
import { describe, expect, it } from "vitest";
import { CHECK_IDS } from "@anna-ai/executa-test";
import { guideCommand, readGuide } from "../guide-doc.js";
import { REPO, runCli } from "../executa-dev/helpers.js";

const GUIDE = readGuide("conformance.md");
const RUN_TIMEOUT_MS = 60_000;

describe("docs/conformance.md", () => {
  it(
    "its first run conforms, as the guide shows",
    async () => {
      const argv = guideCommand(GUIDE, "--dir examples/executas/ts-notes");
      const r = await runCli(argv, { cwd: REPO, timeoutMs: RUN_TIMEOUT_MS });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^✓ handshake\.initialize /m);
      expect(r.stdout.trimEnd().endsWith("conforms")).toBe(true);
    },
    RUN_TIMEOUT_MS + 10_000,
  );

  it(
    "its --only example runs exactly the checks it names",
    async () => {
      const argv = guideCommand(GUIDE, "--only handshake,lifecycle.shutdown");
      const r = await runCli(argv, { cwd: REPO, timeoutMs: RUN_TIMEOUT_MS });
      expect(r.code, r.stderr).toBe(0);
      const ids = [...r.stdout.matchAll(/^[✓✗!-] (\S+)/gm)].map((m) => m[1]);
      expect(ids).toEqual([
        "handshake.initialize",
        "handshake.unknown-method",
        "lifecycle.shutdown",
        "handshake.v1-fallback",
      ]);
    },
    RUN_TIMEOUT_MS + 10_000,
  );

  it("documents every check in its table", () => {
    for (const id of CHECK_IDS) expect(GUIDE, `${id} is not in the guide`).toContain(`| \`${id}\``);
  });
});
