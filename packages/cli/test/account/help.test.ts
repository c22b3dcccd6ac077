// `--help` of every account command documents each flag with an example, and the command table
// lists it under its name with the same summary.
import { describe, expect, it } from "vitest";
import { renderHelp } from "../../src/cli/args.js";
import { COMMANDS } from "../../src/commands/registry.js";
import { ACCOUNT_COMMANDS } from "./command-modules.js";

describe.each(Object.entries(ACCOUNT_COMMANDS))("%s --help", (name, command) => {
  it("is registered under its name with its own summary", async () => {
    const entry = COMMANDS.find((c) => c.path.join(" ") === name);
    expect(entry, `${name} is not in the command table`).toBeDefined();
    expect(await entry!.load()).toBe(command);
    expect(entry?.summary).toBe(command.spec.summary);
    expect(command.spec.name).toBe(name);
  });

  it("shows every flag in an example", () => {
    const help = renderHelp(command.spec);
    const examples = help.slice(help.indexOf("Examples:"));
    for (const flag of command.spec.flags.map((f) => f.name)) {
      expect(help).toMatch(new RegExp(`^  --${flag}\\b`, "m"));
      expect(examples, `--${flag} has no example`).toMatch(new RegExp(`--${flag}(\\s|$)`, "m"));
    }
  });
});
