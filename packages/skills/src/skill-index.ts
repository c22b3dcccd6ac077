import { readFile } from "node:fs/promises";
import { hostSkillOs, isAvailableOn } from "./host-os.js";
import type { SkillIssue } from "./issues.js";
import { parseSkillFile } from "./parse-skill.js";
import { workspaceSkillsDir } from "./resolve-bundled-dir.js";
import { scanSkills } from "./scan-skills.js";
import type { Skill, SkillSummary } from "./skill.js";
import type { SkillOs } from "./types.js";

/** Where a skill came from; later sources override earlier ones by id (S16, S17). */
export type SkillSource = "bundled" | "user" | "workspace";
const SOURCE_ORDER: readonly SkillSource[] = ["bundled", "user", "workspace"];

export interface IndexedSkill extends SkillSummary {
  source: SkillSource;
  path: string;
  dir: string;
  /** False when the skill's `os` list excludes the host (S20); such skills are not listed. */
  available: boolean;
}

export interface SkillIndexOptions {
  /** The bundled set (resolve it with `resolveBundledSkillsDir`, S16). */
  bundledDir?: string;
  /** A per-user folder of skills, between bundled and workspace. */
  userDir?: string;
  /** The workspace root: its `skills/` folder is overlaid last and wins (S17). */
  workspaceDir?: string;
  /** The host OS for the `os` filter (S20). Default: this machine; `null` disables the filter. */
  os?: SkillOs | null;
  /**
   * Every problem found while indexing: warnings, and the errors of skills that were skipped
   * because they cannot be loaded. The index never throws over a bad skill.
   */
  onWarning?: (issue: SkillIssue) => void;
}

export class SkillLoadError extends Error {
  constructor(
    message: string,
    readonly issues: readonly SkillIssue[] = [],
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "SkillLoadError";
  }
}

export interface SkillIndexChanges {
  added: string[];
  removed: string[];
  changed: string[];
}

/**
 * The skill registry: id → file, built from frontmatter only, with bodies read on first use.
 * Ids are `skill_key ?? name` (X8); a workspace skill replaces a user or bundled one with the
 * same id, and within one folder the first path in sorted order wins.
 */
export class SkillIndex {
  private entries = new Map<string, IndexedSkill>();
  private bodies = new Map<string, Skill>();

  private constructor(private readonly options: SkillIndexOptions) {}

  static async build(options: SkillIndexOptions): Promise<SkillIndex> {
    const index = new SkillIndex(options);
    index.entries = await index.scan();
    return index;
  }

  /** Available skills (S20), sorted by id. */
  list(): IndexedSkill[] {
    return [...this.entries.values()].filter((s) => s.available);
  }

  /** Skills hidden by the `os` filter, for diagnostics. */
  unavailable(): IndexedSkill[] {
    return [...this.entries.values()].filter((s) => !s.available);
  }

  /** Available skills with `always: true` (S15): injected into every conversation. */
  always(): IndexedSkill[] {
    return this.list().filter((s) => s.metadata.always);
  }

  /** An available skill by id (`skill_key ?? name`). */
  get(id: string): IndexedSkill | undefined {
    const entry = this.entries.get(id);
    return entry?.available === true ? entry : undefined;
  }

  get size(): number {
    return this.list().length;
  }

  /**
   * The skill with its body, read and parsed on first request and cached until `reload` (S18).
   * Throws `SkillLoadError` when the id is unknown or the file no longer parses.
   */
  async load(id: string): Promise<Skill> {
    const cached = this.bodies.get(id);
    if (cached !== undefined) return cached;
    const entry = this.get(id);
    if (entry === undefined) throw new SkillLoadError(`no skill "${id}" in the index`);
    let text: string;
    try {
      text = await readFile(entry.path, "utf8");
    } catch (cause) {
      throw new SkillLoadError(`cannot read ${entry.path}`, [], { cause });
    }
    const parsed = parseSkillFile(text, { path: entry.path });
    if (!parsed.ok) {
      throw new SkillLoadError(
        `${entry.path} no longer parses: ${parsed.errors[0]?.message ?? "unknown error"}`,
        parsed.errors,
      );
    }
    const skill = parsed.skill;
    this.bodies.set(id, skill);
    return skill;
  }

  /** Rescans every folder (S19) and reports what changed by id. */
  async reload(): Promise<SkillIndexChanges> {
    const next = await this.scan();
    const changes: SkillIndexChanges = { added: [], removed: [], changed: [] };
    for (const [id, entry] of next) {
      const prev = this.entries.get(id);
      if (prev === undefined) changes.added.push(id);
      else if (
        prev.path !== entry.path ||
        JSON.stringify(prev.frontmatter.raw) !== JSON.stringify(entry.frontmatter.raw)
      ) {
        changes.changed.push(id);
      }
    }
    for (const id of this.entries.keys()) if (!next.has(id)) changes.removed.push(id);
    this.entries = next;
    this.bodies.clear();
    return changes;
  }

  private async scan(): Promise<Map<string, IndexedSkill>> {
    const onIssue = this.options.onWarning ?? (() => undefined);
    const host = this.options.os === null ? null : (this.options.os ?? hostSkillOs());
    const dirs: Record<SkillSource, string | undefined> = {
      bundled: this.options.bundledDir,
      user: this.options.userDir,
      workspace:
        this.options.workspaceDir !== undefined
          ? workspaceSkillsDir(this.options.workspaceDir)
          : undefined,
    };
    const perSource = await Promise.all(
      SOURCE_ORDER.map(async (source) => {
        const dir = dirs[source];
        if (dir === undefined) return [];
        const scanned = await scanSkills(dir, onIssue);
        return scanned.map((head) => ({ source, file: head.file, head }));
      }),
    );
    const merged = new Map<string, IndexedSkill>();
    for (const results of perSource) {
      const seenHere = new Map<string, string>();
      for (const { source, file, head } of results) {
        for (const w of head.warnings) onIssue(w);
        if (head.summary === undefined) {
          for (const e of head.errors) onIssue(e);
          continue;
        }
        const summary = head.summary;
        const first = seenHere.get(summary.id);
        if (first !== undefined) {
          onIssue({
            severity: "warning",
            code: "skill.duplicate_skill",
            message: `skill "${summary.id}" is also defined in ${first}; this one is ignored`,
            file,
          });
          continue;
        }
        seenHere.set(summary.id, file);
        merged.set(summary.id, {
          ...summary,
          source,
          path: file,
          dir: summary.dir ?? file,
          available: host === null ? true : isAvailableOn(summary.metadata.os, host),
        });
      }
    }
    return new Map([...merged.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }
}
