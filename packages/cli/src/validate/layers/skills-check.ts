// Every `SKILL.md` of the project (an app bundles skills as `executas/<name>/SKILL.md`, S29),
// validated by @anna-ai/skills — the same code the skill index and the server use. Skill
// findings keep the skills package's severities: errors make a skill unloadable, warnings are
// what the platform accepts anyway (non-kebab names, extra keys).
import path from "node:path";
import { type SkillIssue, validateSkillDir } from "@anna-ai/skills";
import type { ValidateContext } from "../context.js";
import { walkFiles } from "../walk.js";

export const SKILL_FILE = "SKILL.md";

export async function runSkillsCheck(ctx: ValidateContext): Promise<void> {
  const files = await walkFiles(ctx.paths.root, {
    accept: (name) => name === SKILL_FILE,
    // The bundle is served to browsers; a SKILL.md there is not a skill.
    skipFolder: (_name, absolute) => absolute === ctx.paths.bundle,
  });
  for (const file of files) {
    const result = await validateSkillDir(path.dirname(file));
    for (const issue of [...result.errors, ...result.warnings])
      report(ctx, issue.file ?? file, issue);
  }
}

function report(ctx: ValidateContext, file: string, issue: SkillIssue): void {
  ctx.reportAt(
    "cross-file",
    file,
    { line: issue.line ?? 1, column: issue.column ?? 1 },
    {
      severity: issue.severity,
      code: issue.code.startsWith("skill.") ? issue.code : `skill.${issue.code}`,
      message: issue.message,
    },
    issue.pointer ?? "",
  );
}
