// Pre-built binaries (R165 step 5, L11583; T35): `bin/<tool_id>` or `bin/<dirname>`. The
// multi-file layout variables are added by finishSpec for every binary.
import { readdir } from "node:fs/promises";
import * as path from "node:path";
import type { DetectContext } from "./detect-context.js";
import { LaunchError } from "./launch-error.js";
import type { LaunchPlan } from "./launch-plan.js";
import { isExecutableFile } from "./which.js";

export interface BinaryInput {
  dir: string;
  toolId: string;
  explicit: readonly string[] | undefined;
}

export async function binaryPlan(input: BinaryInput, ctx: DetectContext): Promise<LaunchPlan> {
  if (input.explicit !== undefined) return { command: input.explicit, warnings: [] };
  const found = await findBinary(input.dir, [input.toolId, path.basename(input.dir)], ctx);
  if (found === undefined) {
    throw new LaunchError(
      "NO_PLUGIN_FOUND",
      `${path.join(input.dir, "bin", input.toolId)}: no executable there; build the binary into bin/ or set "command" in executa.json`,
      { path: input.dir },
    );
  }
  return { command: [found], warnings: [] };
}

/** Absolute path of the first executable `bin/<name>` (with `.exe`/`.cmd` on Windows). */
export async function findBinary(
  dir: string,
  names: readonly string[],
  ctx: Pick<DetectContext, "platform">,
): Promise<string | undefined> {
  const windows = ctx.platform === "win32";
  const suffixes = windows ? ["", ".exe", ".cmd", ".bat"] : [""];
  for (const name of names) {
    for (const suffix of suffixes) {
      const file = path.join(dir, "bin", name + suffix);
      if (isExecutableFile(file, windows)) return file;
    }
  }
  return undefined;
}

/** Executables directly in `bin/`, sorted; used when none is named after the tool. */
export async function binExecutables(
  dir: string,
  ctx: Pick<DetectContext, "platform">,
): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(path.join(dir, "bin"));
  } catch {
    return [];
  }
  const windows = ctx.platform === "win32";
  return names.filter((n) => isExecutableFile(path.join(dir, "bin", n), windows)).sort();
}
