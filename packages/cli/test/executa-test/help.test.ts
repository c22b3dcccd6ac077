// `executa test --help` documents every flag with an example and the exit codes, and the command
// table lists it with the same summary.
import { describe, expect, it } from "vitest";
import { renderHelp } from "../../src/cli/args.js";
import { command } from "../../src/commands/executa-test.js";
import { COMMANDS } from "../../src/commands/registry.js";

describe("executa test --help", () => {
  const help = renderHelp(command.spec);
  const examples = help.slice(help.indexOf("Examples:"));

  it.each(command.spec.flags.map((f) => f.name))("documents --%s with an example", (name) => {
    expect(help).toMatch(new RegExp(`^  --${name}\\b`, "m"));
    expect(examples).toMatch(new RegExp(`--${name}(\\s|$)`, "m"));
  });

  it("states the exit codes and is registered under its name", () => {
    expect(help).toMatch(
      /0 every check passed \(warnings allowed\), 1 a\s+check failed, 2 usage or launch error/,
    );
    const entry = COMMANDS.find((c) => c.path.join(" ") === "executa test");
    expect(entry?.summary).toBe(command.spec.summary);
  });
});
