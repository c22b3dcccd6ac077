// `--help` documents every flag, and every flag appears in at least one example.
import { describe, expect, it } from "vitest";
import { renderHelp } from "../../src/cli/args.js";
import { command } from "../../src/commands/executa-dev.js";
import { runCli } from "./helpers.js";

describe("executa dev --help", () => {
  const help = renderHelp(command.spec);
  const examples = help.slice(help.indexOf("Examples:"));

  it.each(command.spec.flags.map((f) => f.name))("documents --%s with an example", (name) => {
    expect(help).toMatch(new RegExp(`^  --${name}\\b`, "m"));
    expect(examples).toMatch(new RegExp(`--${name}(\\s|$)`, "m"));
  });

  it("lists the REPL commands and the exit codes", () => {
    for (const word of [
      "describe",
      "health",
      "invoke <tool>",
      "tools",
      "trace on|off",
      "restart",
      "quit",
    ]) {
      expect(help).toContain(word);
    }
    expect(help).toMatch(/0 success, 1 the invoke failed .*, 2 usage, launch or fixture error/s);
  });

  it("says the app scope only applies to app invokes", () => {
    expect(help).toMatch(/app only applies to invokes from an app/);
  });
});

describe("group --help", () => {
  it.each(["executa", "fixture"])(
    "anna-app %s --help lists examples of its commands",
    async (group) => {
      const r = await runCli([group, "--help"]);
      expect(r.code).toBe(0);
      const examples = r.stdout.slice(r.stdout.indexOf("Examples:"));
      expect(r.stdout).toContain("Examples:");
      expect(examples).toMatch(new RegExp(`^  anna-app ${group} \\w+ `, "m"));
    },
  );
});
