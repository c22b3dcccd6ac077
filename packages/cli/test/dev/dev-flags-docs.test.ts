// `anna-app dev --help` and docs/app-dev.md's flag table name the same flags: concurrent edits
// once added a flag to one and not the other.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { spec } from "../../src/commands/dev.js";

const GUIDE = readFileSync(
  fileURLToPath(new URL("../../../../docs/app-dev.md", import.meta.url)),
  "utf8",
);

/** The `--flag` names the first cell of each row of the "## Flags" table mentions. */
function documentedFlags(): string[] {
  const at = GUIDE.indexOf("\n## Flags");
  const section = GUIDE.slice(at, GUIDE.indexOf("\n## ", at + 1));
  const rows = section.split("\n").filter((line) => line.startsWith("| `--"));
  return rows.flatMap((row) =>
    [...(row.split("|")[1] ?? "").matchAll(/--([a-z-]+)/g)].map((m) => m[1] ?? ""),
  );
}

describe("anna-app dev flags: --help and docs/app-dev.md", () => {
  it("document exactly the flags the command takes", () => {
    const help = spec.flags.map((flag) => flag.name).sort();
    expect(documentedFlags().sort()).toEqual(help);
  });
});
