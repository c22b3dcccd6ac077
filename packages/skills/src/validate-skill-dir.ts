import type { Dirent } from "node:fs";
import { readdir, readFile, stat } from "node:fs/promises";
import { basename, isAbsolute, join, normalize, sep } from "node:path";
import type { SkillIssue } from "./issues.js";
import { parseSkillFile } from "./parse-skill.js";
import type { Skill } from "./skill.js";
import { SKILL_FILE_NAME } from "./discover.js";

export interface SkillDirValidation {
  ok: boolean;
  skill?: Skill;
  errors: SkillIssue[];
  warnings: SkillIssue[];
}

/** Folder names the Skill Format page lists for supporting files (L3982–3985). */
const SUPPORTING_DIRS = ["examples", "templates", "data", "scripts"];
/** Files that look like secrets: "Don't include credentials, `.env` files" (L4107). */
const SECRET_FILE =
  /^(?:\.env(?:\..*)?|.*\.pem|.*\.key|id_rsa|id_ed25519|credentials\.json|\.npmrc|\.pypirc)$/i;
/** Supporting files are few; a bounded scan keeps validate fast on a mistaken folder. */
const MAX_SCANNED_FILES = 2000;

/**
 * Validates a skill folder the way `anna-app validate` reports it: the `SKILL.md` rules, plus the
 * authoring lints of the smoke-test and publish checklists (S23, X54) as warnings. Reads files,
 * never runs them. Never throws for bad content; a missing folder or file is an error issue.
 */
export async function validateSkillDir(dir: string): Promise<SkillDirValidation> {
  const file = join(dir, SKILL_FILE_NAME);
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (cause) {
    const missing = (cause as NodeJS.ErrnoException).code === "ENOENT";
    return {
      ok: false,
      errors: [
        {
          severity: "error",
          code: missing ? "skill.skill_file_missing" : "skill.read_failed",
          message: missing
            ? `no ${SKILL_FILE_NAME} in ${dir}: a skill is a folder with a ${SKILL_FILE_NAME} (frontmatter + body)`
            : `cannot read ${file}: ${cause instanceof Error ? cause.message : String(cause)}`,
          file,
        },
      ],
      warnings: [],
    };
  }
  const parsed = parseSkillFile(text, { path: file, fallbackName: basename(dir) });
  if (!parsed.ok) return { ok: false, errors: parsed.errors, warnings: parsed.warnings };
  const skill = parsed.skill;
  const warnings = [...parsed.warnings];
  const warn = (code: string, message: string, line?: number, pointer?: string): void => {
    const issue: SkillIssue = { severity: "warning", code, message, file };
    if (line !== undefined) issue.line = line;
    if (pointer !== undefined) issue.pointer = pointer;
    warnings.push(issue);
  };

  // Publish checklist (L4101): declared, not defaulted.
  const metaRaw = skill.metadata;
  if (metaRaw.namespace === undefined && skill.frontmatter.raw["metadata"] === undefined) {
    warn(
      "skill.publish_metadata_missing",
      'no "metadata": publishing expects metadata.matrix with execution_mode and category_name',
    );
  } else {
    const declared = declaredMetadataKeys(skill.frontmatter.raw["metadata"]);
    for (const key of ["execution_mode", "category_name"]) {
      if (!declared.has(key)) {
        warn(
          "skill.publish_metadata_missing",
          `metadata does not declare "${key}" (the publish checklist asks for it)`,
        );
      }
    }
  }
  if (skill.body.trim() === "") {
    warn(
      "skill.body_empty",
      "the body is empty: it is what the LLM receives when it picks the skill",
      skill.bodyLine,
    );
  }

  for (const ref of referencedPaths(skill.body, skill.bodyLine)) {
    const normalized = normalize(ref.path);
    if (isAbsolute(ref.path) || normalized === ".." || normalized.startsWith(`..${sep}`)) {
      warn(
        "skill.reference_outside",
        `the body refers to "${ref.path}", outside the skill folder; the body must be self-contained`,
        ref.line,
      );
      continue;
    }
    if (!(await exists(join(dir, normalized)))) {
      warn(
        "skill.reference_missing",
        `the body refers to "${ref.path}", which does not exist in the skill folder`,
        ref.line,
      );
    }
  }

  for (const secret of await findSecretFiles(dir)) {
    warn(
      "skill.secret_file",
      `"${secret}" looks like credentials; everything in the folder ships verbatim to installers — remove it`,
    );
  }
  return { ok: true, skill, errors: [], warnings };
}

function declaredMetadataKeys(raw: unknown): Set<string> {
  let value = raw;
  if (typeof value === "string") {
    try {
      value = JSON.parse(value);
    } catch {
      return new Set();
    }
  }
  if (typeof value !== "object" || value === null) return new Set();
  const record = value as Record<string, unknown>;
  for (const ns of ["matrix", "openclaw", "nexus"]) {
    const inner = record[ns];
    if (Object.hasOwn(record, ns) && typeof inner === "object" && inner !== null) {
      return new Set(Object.keys(inner));
    }
  }
  return new Set(Object.keys(record));
}

interface Reference {
  path: string;
  line: number;
}

/**
 * Relative paths the body points at: markdown link targets, and inline-code spans that start
 * with a supporting-file folder (`templates/report.md.tpl`) or `./` / `../`. URLs and anchors
 * are not files. Deliberately narrow: a false "missing file" warning teaches authors to ignore
 * warnings.
 */
export function referencedPaths(body: string, firstLine: number): Reference[] {
  const out: Reference[] = [];
  const seen = new Set<string>();
  const lines = body.split("\n");
  let inFence = false;
  lines.forEach((line, i) => {
    if (/^\s*(```|~~~)/.test(line)) {
      inFence = !inFence;
      return;
    }
    if (inFence) return;
    const candidates: string[] = [];
    for (const m of line.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) candidates.push(m[1] ?? "");
    for (const m of line.matchAll(/`([^`\s]+)`/g)) {
      const text = m[1] ?? "";
      const top = text.split("/")[0] ?? "";
      if (text.includes("/") && (SUPPORTING_DIRS.includes(top) || top === "." || top === "..")) {
        candidates.push(text);
      }
    }
    for (const raw of candidates) {
      if (
        /^[a-z][a-z0-9+.-]*:/i.test(raw) ||
        raw.startsWith("#") ||
        raw.includes("<") ||
        raw.includes("*")
      )
        continue;
      const path = raw.split("#")[0] ?? "";
      if (path === "" || seen.has(path)) continue;
      seen.add(path);
      out.push({ path, line: firstLine + i });
    }
  });
  return out;
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

async function findSecretFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  let scanned = 0;
  const walk = async (at: string, rel: string): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await readdir(at, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (++scanned > MAX_SCANNED_FILES) return;
      const relPath = rel === "" ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) {
        if (entry.name === "node_modules" || entry.name === ".git") continue;
        await walk(join(at, entry.name), relPath);
      } else if (SECRET_FILE.test(entry.name) && entry.name !== ".env.example") {
        out.push(relPath);
      }
    }
  };
  await walk(dir, "");
  return out.sort();
}
