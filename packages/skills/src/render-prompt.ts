import { skillToolName } from "./render-tool.js";
import type { SkillSummary } from "./skill.js";

/**
 * The system-prompt side of skills. The spec names the block but not its layout (X7): one
 * `<skill>` per skill with the tool name and description, sorted by name so the prompt (and its
 * cache) is stable, text escaped so a description cannot close the block or forge a skill.
 */
export function renderAvailableSkillsBlock(skills: readonly SkillSummary[]): string {
  if (skills.length === 0) return "";
  const sorted = [...skills].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const items = sorted.map((skill) => {
    const attrs = skill.metadata.always ? ' always="true"' : "";
    return [
      `<skill${attrs}>`,
      `<name>${escapeXml(skillToolName(skill.id))}</name>`,
      `<description>${escapeXml(skill.description)}</description>`,
      `</skill>`,
    ].join("\n");
  });
  return `<available_skills>\n${items.join("\n")}\n</available_skills>`;
}

/** S14: text the spec leaves to us; the intent (prefer `uv` over system `pip`) is L4041. */
export const PYTHON_MODE_SECTION = [
  "## Running Python for skills",
  "Some skills ask you to run Python. Use `uv`, not the system `pip`:",
  "- Run scripts with `uv run --with <package> python script.py` (repeat `--with` per package); uv resolves the packages into a throwaway environment for that run.",
  "- Do not `pip install` into the system Python, and do not use `sudo` for Python packages.",
  "- If `uv` is missing, say so and offer the skill's install recipe; do not fall back to the system `pip` silently.",
].join("\n");

/** The Python-mode section when any given skill runs in `python` mode, else "" (S14). */
export function renderPythonModeSection(skills: readonly SkillSummary[]): string {
  return skills.some((s) => s.metadata.execution_mode === "python") ? PYTHON_MODE_SECTION : "";
}

/**
 * Element text: `&`, `<`, `>` as entities (enough to keep a description from closing the block;
 * quotes stay readable), control characters other than tab/newline dropped.
 */
export function escapeXml(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex -- stripping control characters is the point
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, "")
      .replace(/&/g, "&amp;")
      .replace(/</g, "&lt;")
      .replace(/>/g, "&gt;")
  );
}
