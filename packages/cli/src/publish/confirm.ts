// The guard of destructive commands (R171, R172): `--yes` and `--confirm <ref>`, where the
// confirmation is the ref as typed or the executa's real tool_id. ANNA_CLI_NO_DESTRUCTIVE=1
// refuses them outright (exit 7), for CI jobs that must never delete.
import type { FlagDef, FlagValues } from "../cli/args.js";
import { EXIT_DESTRUCTIVE_REFUSED, ExitError, usageError } from "../cli/exit-error.js";

export const DESTRUCTIVE_FLAGS: readonly FlagDef[] = [
  {
    name: "yes",
    type: "boolean",
    description: "Confirm the destructive operation (with --confirm)",
  },
  {
    name: "confirm",
    type: "string",
    value: "<slug>",
    description: "Repeat the slug (or the tool_id) you are acting on",
  },
];

/**
 * Before any request: the environment allows it and both flags are there. Then, once the ref is
 * resolved, `--confirm` must equal the ref as typed or one of `accepted` (the real tool_id).
 */
export function requireConfirmation(
  flags: FlagValues,
  env: NodeJS.ProcessEnv,
  command: string,
  typed: string,
  accepted?: readonly string[],
): void {
  if (env.ANNA_CLI_NO_DESTRUCTIVE === "1") {
    throw new ExitError(
      EXIT_DESTRUCTIVE_REFUSED,
      `${command} refused: ANNA_CLI_NO_DESTRUCTIVE=1 is set in this environment`,
    );
  }
  const confirm = flags.confirm;
  if (flags.yes !== true || typeof confirm !== "string") {
    throw usageError(
      `${command} ${typed} cannot be undone; run it again with --yes --confirm ${typed}`,
      command,
    );
  }
  if (accepted !== undefined && ![typed, ...accepted].includes(confirm)) {
    throw usageError(
      `--confirm ${confirm} does not match ${[typed, ...accepted].join(" or ")}; nothing was changed`,
      command,
    );
  }
}
