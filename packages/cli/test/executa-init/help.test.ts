// `--help` documents every flag of executa init and doctor, each shown in an example.
import { describe, expect, it } from "vitest";
import { renderHelp } from "../../src/cli/args.js";
import { command as doctor } from "../../src/commands/doctor.js";
import { command as init } from "../../src/commands/executa-init.js";
import { COMMANDS } from "../../src/commands/registry.js";

describe.each([
  ["executa init", init],
  ["doctor", doctor],
])("%s --help", (name, command) => {
  const help = renderHelp(command.spec);
  const examples = help.slice(help.indexOf("Examples:"));

  it.each(command.spec.flags.map((f) => f.name))("documents --%s with an example", (flag) => {
    expect(help).toMatch(new RegExp(`^  --${flag}\\b`, "m"));
    expect(examples).toMatch(new RegExp(`--${flag}(\\s|$)`, "m"));
  });

  it("is registered under its name", async () => {
    const entry = COMMANDS.find((c) => c.path.join(" ") === name);
    expect(entry).toBeDefined();
    expect((await entry?.load())?.spec.name).toBe(name);
  });
});

it("executa init --help names every template", () => {
  const help = renderHelp(init.spec);
  for (const template of ["python", "node", "go", "ts"]) expect(help).toContain(`${template} (`);
});
