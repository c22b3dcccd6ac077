// Skills ship inside `executas/` beside tools (an executa.json with `"executa_type": "skill"` and
// a `content_file`, or a folder with only a SKILL.md), and app.json `bundled_executas` may name
// them. `anna-app dev` runs the app's tools and says nothing about its skills: no warning that a
// skill is a broken tool, has no type, or cannot be bundled.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { devBanner } from "../../src/dev/banner.js";
import { scaffoldTestApp, startHarness } from "./helpers.js";

const SKILL_MD =
  "---\nname: coach\ndescription: Coaches a focus session.\n---\nStay on one task.\n";

describe("anna-app dev: bundled skills", () => {
  it("runs an app whose bundled_executas name skills of both forms, without a warning", async () => {
    const app = await scaffoldTestApp();
    const coach = path.join(app.dir, "executas/coach");
    mkdirSync(coach, { recursive: true });
    writeFileSync(
      path.join(coach, "executa.json"),
      JSON.stringify({ executa_type: "skill", content_file: "SKILL.md" }),
    );
    writeFileSync(path.join(coach, "SKILL.md"), SKILL_MD);
    const guide = path.join(app.dir, "executas/guide");
    mkdirSync(guide, { recursive: true });
    writeFileSync(path.join(guide, "SKILL.md"), SKILL_MD.replace("coach", "guide"));
    const listingFile = path.join(app.dir, "app.json");
    const listing = JSON.parse(readFileSync(listingFile, "utf8")) as {
      bundled_executas: Record<string, { path: string }>;
    };
    listing.bundled_executas.coach = { path: "executas/coach" };
    listing.bundled_executas.guide = { path: "executas/guide" };
    writeFileSync(listingFile, JSON.stringify(listing, null, 2));

    const server = await startHarness(app);
    const { warnings } = await devBanner(server);
    expect(warnings).toEqual([]);
    // The tool still runs; the skills are not taken for tools.
    expect(server.executas.specs.map((spec) => path.basename(spec.dir))).toEqual([
      path.basename(app.executaDir),
    ]);
    expect(Object.keys(server.executas.handles)).not.toContain("coach");
    const state = (await (await fetch(`${server.url}dev/api/state`)).json()) as {
      warnings: string[];
    };
    expect(state.warnings).toEqual([]);
  });
});
