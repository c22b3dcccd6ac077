// docs/publishing.md shows every app and executa publish command of R169–R172 in a bash block,
// and every `anna-app …` line there names a command that exists with only flags it takes, so
// the guide cannot drift from the parser.
import { describe, expect, it } from "vitest";
import { parseArgs } from "../../src/cli/args.js";
import { COMMANDS, findCommand } from "../../src/commands/registry.js";
import { fencedBlocks, readGuide } from "../guide-doc.js";

const lines = fencedBlocks(readGuide("publishing.md"), "bash")
  .flatMap((b) => b.split("\n"))
  .map((l) => l.replace(/\s+#.*$/, "").trim())
  .filter((l) => l.startsWith("anna-app "));

const APP_COMMANDS = COMMANDS.filter((c) => c.path[0] === "apps").map((c) => c.path.join(" "));

describe("docs/publishing.md", () => {
  it("has an example of every apps command and of the top-level publish", () => {
    expect(APP_COMMANDS).toHaveLength(16);
    for (const name of [...APP_COMMANDS, "publish"]) {
      expect(
        lines.some((l) => l === `anna-app ${name}` || l.startsWith(`anna-app ${name} `)),
        name,
      ).toBe(true);
    }
  });

  it.each(lines)("%s parses", async (line) => {
    const argv = line.split(/\s+/).slice(1);
    const found = findCommand(argv);
    expect(found, `no command for ${line}`).toBeDefined();
    const command = await found!.entry.load();
    expect(() => parseArgs(command.spec, found!.rest)).not.toThrow();
  });
});
