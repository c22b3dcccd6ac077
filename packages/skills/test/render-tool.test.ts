import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  EXECUTION_MODE_HINTS,
  EXECUTION_MODES,
  parseSkillFile,
  renderSkillTool,
  type Skill,
  skillToolName,
} from "../src/index.js";
import { REFERENCE_SKILLS } from "./helpers.js";

async function reference(name: string): Promise<Skill> {
  const path = join(REFERENCE_SKILLS, name, "SKILL.md");
  const r = parseSkillFile(await readFile(path, "utf8"), { path });
  if (!r.ok) throw new Error(`fixture ${name} does not parse`);
  return r.skill;
}

function skill(metadata: string, body = "BODY\n", name = "s"): Skill {
  const r = parseSkillFile(
    `---\nname: ${name}\ndescription: d\nmetadata: ${metadata}\n---\n${body}`,
  );
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.skill;
}

describe("renderSkillTool (S12)", () => {
  it("names the tool after skill_key, else name, and describes it with the description", async () => {
    const chart = renderSkillTool(await reference("chart-generator"));
    expect(chart.name).toBe("chart-generator");
    expect(chart.description).toContain("matplotlib and seaborn");
    expect(renderSkillTool(skill('{"matrix":{"skill_key":"charts"}}')).name).toBe("charts");
  });

  it("puts the hint first, then the dependencies, then the body verbatim", async () => {
    const s = await reference("chart-generator");
    const { content } = renderSkillTool(s);
    const hint = content.indexOf(EXECUTION_MODE_HINTS.python);
    const deps = content.indexOf("Python packages: matplotlib, seaborn");
    const body = content.indexOf("# Chart Generator");
    expect(hint).toBeGreaterThanOrEqual(0);
    expect(deps).toBeGreaterThan(hint);
    expect(body).toBeGreaterThan(deps);
    expect(content.endsWith(s.body)).toBe(true);
  });

  it("spells out the uv command the spec expects for a python skill (L4078)", async () => {
    const { content } = renderSkillTool(await reference("chart-generator"));
    expect(content).toContain("`uv run --with matplotlib --with seaborn python script.py`");
  });

  it.each(EXECUTION_MODES)("shows the spec's hint for %s mode (S7)", (mode) => {
    const { content } = renderSkillTool(skill(`{"matrix":{"execution_mode":"${mode}"}}`));
    expect(content.split("\n")[0]).toBe(`Execution mode: ${mode}. ${EXECUTION_MODE_HINTS[mode]}.`);
  });

  it("lists every kind of declared requirement and the install recipes", async () => {
    const { content } = renderSkillTool(await reference("postgres-client"));
    expect(content).toContain("- Executables on PATH (all of): psql");
    expect(content).toContain("- Environment variables: DATABASE_URL");
    expect(content).toContain("- Config keys: postgres.default_schema");
    expect(content).toContain("- Primary environment variable: DATABASE_URL");
    expect(content).toContain("  - brew: libpq (macos)");
    expect(content).toContain("  - apt: postgresql-client (linux)");
    const curl = renderSkillTool(await reference("curl")).content;
    expect(curl).toContain("- Executables on PATH (any one of): curl, wget");
  });

  it("has no dependency section when nothing is declared", async () => {
    const { content } = renderSkillTool(await reference("meeting-summary"));
    expect(content).not.toContain("Dependencies:");
  });

  it("turns declared parameters into a JSON Schema (S22)", async () => {
    const { parameters } = renderSkillTool(await reference("postgres-client"));
    expect(parameters).toMatchObject({
      type: "object",
      properties: {
        query: { type: "string", description: "The SQL to run" },
        limit: { type: "integer" },
      },
      required: ["query"],
    });
  });

  it("takes no arguments when no parameters are declared", () => {
    expect(renderSkillTool(skill("{}")).parameters).toEqual({
      type: "object",
      properties: {},
      required: [],
    });
  });

  it("returns fenced commands as text and runs nothing (S13)", () => {
    const marker = join("/tmp", `anna-skill-never-run-${process.pid}`);
    const body = `\`\`\`bash\ntouch ${marker}\n\`\`\`\n$(touch ${marker})\n`;
    const { content } = renderSkillTool(skill('{"matrix":{"execution_mode":"bash"}}', body));
    expect(content).toContain(`touch ${marker}`);
    return expect(readFile(marker)).rejects.toThrow();
  });

  it("reduces names to what tool APIs accept", () => {
    expect(skillToolName("My Fancy Skill")).toBe("My_Fancy_Skill");
    expect(skillToolName("a".repeat(100))).toHaveLength(64);
    expect(skillToolName("技能")).toBe("_");
  });
});
