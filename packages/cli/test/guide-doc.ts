// A guide under docs/, read by the test that follows it: its fenced blocks and its commands, so
// the test runs what the guide shows and the guide cannot drift from what works.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const REPO = path.resolve(fileURLToPath(import.meta.url), "../../../..");

/** `docs/<name>` of this repository. */
export function readGuide(name: string): string {
  return readFileSync(path.join(REPO, "docs", name), "utf8");
}

/** The bodies of the fenced blocks of one language (```bash, ```ts, …), in order. */
export function fencedBlocks(markdown: string, lang: string): string[] {
  return [...markdown.matchAll(new RegExp("```" + lang + "\\n([\\s\\S]*?)```", "g"))].map(
    (m) => m[1] as string,
  );
}

/** The lines of the guide's ```bash blocks, continuation backslashes joined. */
function bashLines(markdown: string): string[] {
  return fencedBlocks(markdown, "bash").flatMap((b) => b.replace(/\\\n\s*/g, "").split("\n"));
}

/**
 * The argv of the guide's first command line that starts with `program ` and contains `needle`,
 * without the program and the trailing `# comment`; single quotes group as the shell does.
 */
export function guideCommand(markdown: string, needle: string, program = "anna-app"): string[] {
  const line = bashLines(markdown).find((l) => l.startsWith(`${program} `) && l.includes(needle));
  if (line === undefined) throw new Error(`the guide has no ${program} command with ${needle}`);
  const argv = [...line.replace(/\s+#.*$/, "").matchAll(/'([^']*)'|(\S+)/g)].map(
    (m) => (m[1] ?? m[2]) as string,
  );
  return argv.slice(program.split(" ").length);
}
