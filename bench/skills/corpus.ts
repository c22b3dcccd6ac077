// A deterministic corpus of SKILL.md files shaped like the bundled ones: mostly one-line JSON
// metadata (the documented form), some YAML-mapping metadata, a few plain frontmatters, bodies
// of 1–24 KiB, some skills nested one folder down and with supporting files beside them.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";

const MODES = ["prompt", "bash", "python", "api", "hybrid"] as const;

/** Small LCG so every run writes the same corpus. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 0x1_0000_0000;
  };
}

export async function writeCorpus(root: string, count: number): Promise<string[]> {
  const rand = random(42);
  const files: string[] = [];
  for (let i = 0; i < count; i++) {
    const name = `skill-${String(i).padStart(4, "0")}`;
    const group = i % 10 === 0 ? join(`group-${i % 7}`, name) : name;
    const dir = join(root, group);
    await mkdir(join(dir, "examples"), { recursive: true });
    const mode = MODES[i % MODES.length] ?? "prompt";
    const bodyBytes = 1024 + Math.floor(rand() * 23 * 1024);
    const paragraph = `Step ${i}: inspect the input, then follow the checklist. Prefer \`jq\` for JSON.\n\n`;
    const body = `# ${name}\n\n${paragraph.repeat(Math.ceil(bodyBytes / paragraph.length))}`;
    let front: string;
    if (i % 10 === 3) {
      front = [
        `name: ${name}`,
        `description: Work with dataset number ${i} and summarise it`,
        "metadata:",
        "  matrix:",
        `    execution_mode: ${mode}`,
        "    category_name: data-analysis",
        "    requires:",
        "      bins: [jq]",
        "      python_packages: [pandas]",
      ].join("\n");
    } else if (i % 10 === 7) {
      front = `name: ${name}\ndescription: A prompt-only skill number ${i}`;
    } else {
      const meta = {
        matrix: {
          emoji: "📈",
          execution_mode: mode,
          category_name: "data-analysis",
          requires: { bins: ["jq"], python_packages: ["matplotlib", "seaborn"] },
          install: [
            { id: "pip", kind: "pip", package: "matplotlib seaborn", label: "Install (pip)" },
          ],
          uninstall: [{ id: "pip", kind: "pip", command: "pip uninstall matplotlib seaborn" }],
        },
      };
      front = `name: ${name}\ndescription: "Create charts from dataset ${i} with matplotlib and seaborn"\nmetadata: ${JSON.stringify(meta)}`;
    }
    const file = join(dir, "SKILL.md");
    await writeFile(file, `---\n${front}\n---\n\n${body}`);
    await writeFile(join(dir, "examples", "input-1.md"), "example input\n");
    files.push(file);
  }
  return files;
}
