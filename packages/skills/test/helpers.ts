import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { onTestFinished } from "vitest";

export const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), "fixtures");
export const REFERENCE_SKILLS = join(FIXTURES, "skills");

/** A temp folder removed when the test finishes. */
export async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "anna-skills-"));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** Writes `files` (relative path → content) under `root`. */
export async function writeTree(root: string, files: Record<string, string>): Promise<void> {
  for (const [rel, content] of Object.entries(files)) {
    const path = join(root, rel);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, content);
  }
}

export function skillMd(
  name: string,
  description: string,
  metadata?: string,
  body = "Body.\n",
): string {
  const meta = metadata === undefined ? "" : `metadata: ${metadata}\n`;
  return `---\nname: ${name}\ndescription: ${description}\n${meta}---\n\n${body}`;
}
