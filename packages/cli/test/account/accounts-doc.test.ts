// Every `anna-app …` line of docs/accounts.md names a command that exists and only flags it
// takes, so the guide cannot drift from the parser.
import { describe, expect, it } from "vitest";
import { parseArgs } from "../../src/cli/args.js";
import { findCommand } from "../../src/commands/registry.js";
import { fencedBlocks, readGuide } from "../guide-doc.js";
import { ACCOUNT_COMMANDS } from "./command-modules.js";

const lines = fencedBlocks(readGuide("accounts.md"), "bash")
  .flatMap((b) => b.split("\n"))
  .map((l) => l.replace(/\s+#.*$/, "").trim())
  .filter((l) => l.startsWith("anna-app "));

describe("docs/accounts.md", () => {
  it("shows commands", () => {
    expect(lines.length).toBeGreaterThanOrEqual(10);
  });

  it.each(lines)("%s parses", (line) => {
    const argv = line.split(/\s+/).slice(1);
    const found = findCommand(argv);
    expect(found, `no command for ${line}`).toBeDefined();
    const command = ACCOUNT_COMMANDS[found!.entry.path.join(" ")];
    expect(command, `${line} is not an account command`).toBeDefined();
    expect(() => parseArgs(command!.spec, found!.rest)).not.toThrow();
  });
});
