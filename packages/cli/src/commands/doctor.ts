// `anna-app doctor`: checks the toolchain the CLI and Executa plugins need (Reference L11723,
// R173) and says what each missing piece disables. Exit 1 when a required piece is missing.
import path from "node:path";
import type { CommandSpec, ParsedArgs } from "../cli/args.js";
import { EXIT_OK, EXIT_RUNTIME, usageError } from "../cli/exit-error.js";
import type { CliIo } from "../cli/io.js";
import { renderDoctor } from "../doctor/render.js";
import { runDoctor, type DoctorOptions } from "../doctor/run-doctor.js";
import type { CommandModule } from "./registry.js";

const NAME = "doctor";

const spec: CommandSpec = {
  name: NAME,
  summary: "Check Node, Python, uv, Go and the dev key; say what each missing piece disables",
  description:
    "Node 20.19+ and a working dev key are required (exit 1 without them). npm, Python, uv, Go " +
    "and a Nexus are optional: each missing one is marked ! with what it disables. The saved " +
    "Nexus account (anna-app login) is checked last: file mode 600, parseable, not expired, and " +
    "accepted by its server (GET /api/v1/me); a problem there is a ! row, never a failure.",
  flags: [
    {
      name: "matrix-nexus-root",
      type: "string",
      value: "<path>",
      description: "Nexus source checkout to test against (default: $ANNA_NEXUS_ROOT)",
    },
    { name: "json", type: "boolean", description: "One JSON line: {ok, checks:[…]}" },
  ],
  examples: [
    "anna-app doctor",
    "anna-app doctor --json",
    "anna-app doctor --matrix-nexus-root ../nexus",
  ],
};

/** The command, with the machine facts injectable for tests (Node version, PATH lookups). */
export function createDoctorCommand(
  overrides: Omit<Partial<DoctorOptions>, "env"> = {},
): CommandModule {
  return {
    spec,
    run: async (args: ParsedArgs, io: CliIo): Promise<number> => {
      if (args.positionals.length > 0) {
        throw usageError(`unexpected argument '${args.positionals[0]}'`, NAME);
      }
      const root = args.flags["matrix-nexus-root"];
      const report = await runDoctor({
        ...overrides,
        env: io.env,
        ...(typeof root === "string" ? { nexusRoot: path.resolve(io.cwd, root) } : {}),
      });
      io.stdout.write(
        args.flags.json === true ? JSON.stringify(report) + "\n" : renderDoctor(report, io.style),
      );
      return report.ok ? EXIT_OK : EXIT_RUNTIME;
    },
  };
}

export const command: CommandModule = createDoctorCommand();
