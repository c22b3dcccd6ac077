// What `init` and `executa init` share as commands: the target argument, the --force/--json
// flags, turning a refusal into exit 2, and the "created these files, now run these" listing.
import path from "node:path";
import type { FlagDef, ParsedArgs } from "../cli/args.js";
import { EXIT_USAGE, ExitError, usageError } from "../cli/exit-error.js";
import type { Style } from "../cli/style.js";

export const FORCE_FLAG: FlagDef = {
  name: "force",
  type: "boolean",
  description: "Write into a non-empty folder, overwriting files of the same name",
};

export const JSON_FLAG: FlagDef = {
  name: "json",
  type: "boolean",
  description: "One JSON line on stdout: the created files and next steps",
};

/** The one `<dir>` positional, or a usage error naming `command`. */
export function targetArgument(args: ParsedArgs, command: string): string {
  const [target, extra] = args.positionals;
  if (target === undefined) throw usageError("missing <dir>: the folder to create", command);
  if (extra !== undefined) throw usageError(`unexpected argument '${extra}'`, command);
  return target;
}

/** Runs a scaffolder; its own refusal class (a fixable user mistake) becomes exit 2. */
export async function exitOnRefusal<T>(
  scaffold: Promise<T>,
  refusal: abstract new (...args: never[]) => Error,
): Promise<T> {
  try {
    return await scaffold;
  } catch (error) {
    if (error instanceof refusal) throw new ExitError(EXIT_USAGE, error.message, { cause: error });
    throw error;
  }
}

export interface CreatedListing {
  /** Absolute folder written into. */
  dir: string;
  cwd: string;
  /** The first line, given the folder as shown (relative to cwd). */
  headline: (shown: string) => string;
  files: readonly string[];
  overwritten: readonly string[];
  steps: readonly string[];
}

/** The human output: a headline, every written file (overwritten ones marked), next steps. */
export function renderCreated(style: Style, listing: CreatedListing): string {
  const { bold, dim } = style;
  const shown = path.relative(listing.cwd, listing.dir) || ".";
  const lines = [
    listing.headline(shown),
    "",
    ...listing.files.map((file) => {
      const note = listing.overwritten.includes(file) ? dim(" (overwritten)") : "";
      return `  ${path.join(shown, file)}${note}`;
    }),
    "",
    bold("Next steps:"),
    ...listing.steps.map((step) => `  ${step}`),
  ];
  return lines.join("\n") + "\n";
}
