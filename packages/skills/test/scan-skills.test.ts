import { chmod } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { SkillIssue } from "../src/index.js";
import { SCAN_SLICE_MS, scanSkills } from "../src/scan-skills.js";
import { REFERENCE_SKILLS, skillMd, tempDir, writeTree } from "./helpers.js";

describe("scanSkills", () => {
  it("gives the event loop a turn between slices of synchronous reads", async () => {
    const root = await tempDir();
    await writeTree(root, {
      "a/SKILL.md": skillMd("a", "first"),
      "b/SKILL.md": skillMd("b", "second"),
      "c/SKILL.md": skillMd("c", "third"),
    });
    let turns = 0;
    let scanning = true;
    const tick = (): void => {
      if (!scanning) return;
      turns++;
      setImmediate(tick);
    };
    setImmediate(tick);
    // A zero-length slice yields after every folder: the root, then each of the three skills.
    const scanned = await scanSkills(root, () => undefined, 0);
    scanning = false;
    expect(scanned.map((s) => s.summary?.id)).toEqual(["a", "b", "c"]);
    expect(turns).toBeGreaterThanOrEqual(3);
  });

  it("finds the same skills and issues whatever the slice length", async () => {
    const sliced: SkillIssue[] = [];
    const whole: SkillIssue[] = [];
    const a = await scanSkills(REFERENCE_SKILLS, (i) => sliced.push(i), 0);
    const b = await scanSkills(REFERENCE_SKILLS, (i) => whole.push(i), SCAN_SLICE_MS);
    expect(a.length).toBeGreaterThan(0);
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(sliced).toEqual(whole);
  });

  it("reports a SKILL.md that cannot be opened as a read failure", async () => {
    const root = await tempDir();
    await writeTree(root, { "x/SKILL.md": skillMd("x", "unreadable") });
    await chmod(join(root, "x/SKILL.md"), 0o000);
    const scanned = await scanSkills(root, () => undefined);
    // Root can read anything: then the skill is simply indexed.
    if (process.getuid?.() === 0) expect(scanned[0]?.summary?.id).toBe("x");
    else expect(scanned[0]?.errors[0]?.code).toBe("skill.read_failed");
  });
});
