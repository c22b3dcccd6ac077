// Skills ship inside `executas/` beside tools (real-world-plugins.md, "Seen in published
// recordings, mocks and manifests"): an executa.json with `"executa_type": "skill"` and a
// `content_file`, or a folder holding only a SKILL.md. They are instructions, not processes:
// tools that run plugins recognise them and say there is nothing to run.
import * as path from "node:path";
import { isFile } from "./project-files.js";

export const SKILL_FILE = "SKILL.md";

/** A skill found in a folder: its content file (absolute) and what marked it. */
export interface SkillFolder {
  dir: string;
  contentFile: string;
  marker: "executa.json" | typeof SKILL_FILE;
}

/** executa.json's declaration of a skill; `content_file` defaults to SKILL.md. */
export function skillFromExecutaJson(
  raw: Record<string, unknown>,
  dir: string,
): SkillFolder | undefined {
  if (raw.executa_type !== "skill") return undefined;
  const content =
    typeof raw.content_file === "string" && raw.content_file !== "" ? raw.content_file : SKILL_FILE;
  return { dir, contentFile: path.resolve(dir, content), marker: "executa.json" };
}

/** A folder with a SKILL.md and no plugin marker is a skill. */
export async function bareSkill(dir: string): Promise<SkillFolder | undefined> {
  const file = path.join(dir, SKILL_FILE);
  return (await isFile(file)) ? { dir, contentFile: file, marker: SKILL_FILE } : undefined;
}

/** One line for tools that were asked to run it. */
export function skillMessage(skill: SkillFolder): string {
  const how =
    skill.marker === "executa.json"
      ? `executa.json declares "executa_type": "skill" with ${path.basename(skill.contentFile)}`
      : `it holds only ${SKILL_FILE}`;
  return `${skill.dir} is a skill (${how}): nothing to run; check it with anna-app validate, and start a tool plugin with executa dev instead`;
}
