// The bundled executas of an app (app.json `bundled_executas`, real-world-cli.md §9.1 step 2–3,
// §9.2 step 2): each handle gets a tool_id — from `--executa-id <handle>=<id>`, from the
// folder's own cache with `--skip-executa-publish`, or by publishing the folder through the
// executa publish flow (frozen by `apps publish`, not by `apps push`) — and the manifest's
// `bundled:<handle>` refs are then replaced with it, in every string of the manifest.
import path from "node:path";
import { bundledHandle } from "@anna-ai/app-schema";
import type { NexusClient } from "../account/nexus-client.js";
import { EXIT_INVALID_PROJECT, ExitError, usageError } from "../cli/exit-error.js";
import type { AppProject } from "./app-project.js";
import { loadExecutaProject } from "./executa-project.js";
import { publishExecuta, type PublishResult } from "./executa-publish.js";
import { type LockEntry, type LockSource, readLock } from "./executas-lock.js";
import { readIdentity } from "./identity-cache.js";
import type { JsonObject } from "./json-file.js";

export interface BundledOptions {
  client: NexusClient;
  host: string;
  project: AppProject;
  /** `publish` freezes each executa's version; `push` does not. */
  mode: "publish" | "push";
  dryRun: boolean;
  noWrite: boolean;
  /** `--executa-id handle=id`. */
  overrides: ReadonlyMap<string, string>;
  skipPublish: boolean;
  /** `--no-bundled-executas`: only the overrides resolve anything. */
  none: boolean;
  profile: string | undefined;
}

export interface BundledResult {
  /** handle → tool_id (a placeholder in a dry run when the executa was never minted). */
  ids: Record<string, string>;
  lock: Record<string, LockEntry>;
  /** The executa publishes that ran (their plans are part of the dry run). */
  published: { handle: string; result: PublishResult }[];
}

/** `--executa-id focus=tool-acme-focus-x1y2z3` (repeatable) → handle → tool_id. */
export function parseOverrides(values: readonly string[], command: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const v of values) {
    const eq = v.indexOf("=");
    if (eq <= 0 || eq === v.length - 1) {
      throw usageError(`--executa-id ${v}: write it as <handle>=<tool_id>`, command);
    }
    out.set(v.slice(0, eq), v.slice(eq + 1));
  }
  return out;
}

export async function resolveBundledExecutas(o: BundledOptions): Promise<BundledResult> {
  const { project: p } = o;
  const ids: Record<string, string> = {};
  const lock: Record<string, LockEntry> = {};
  const published: BundledResult["published"] = [];
  const known = new Set(p.bundled.map((b) => b.handle));
  for (const handle of o.overrides.keys()) {
    if (!known.has(handle)) {
      throw new ExitError(
        EXIT_INVALID_PROJECT,
        `--executa-id ${handle}=…: app.json has no bundled executa "${handle}" (it has: ${[...known].join(", ") || "none"})`,
      );
    }
  }
  const locked = await readLock(p.dir, o.host);
  for (const b of p.bundled) {
    const set = (toolId: string, source: LockSource) => {
      ids[b.handle] = toolId;
      lock[b.handle] = { tool_id: toolId, path: b.path, source };
    };
    const override = o.overrides.get(b.handle);
    if (override !== undefined) {
      set(override, "override");
      continue;
    }
    if (o.none) continue;
    const dir = path.resolve(p.dir, b.path);
    const executa = await loadExecutaProject(dir, { profile: o.profile });
    if (o.skipPublish) {
      const cached =
        (await readIdentity(dir, o.host, executa.slug))?.tool_id ?? locked[b.handle]?.tool_id;
      if (cached === undefined) {
        throw new ExitError(
          EXIT_INVALID_PROJECT,
          `bundled executa "${b.handle}" (${b.path}) has no tool_id on ${o.host} yet; publish it once (drop --skip-executa-publish) or pass --executa-id ${b.handle}=<tool_id>`,
        );
      }
      set(cached, "cache");
      continue;
    }
    const result = await publishExecuta({
      client: o.client,
      host: o.host,
      project: executa,
      publishPublic: false,
      dryRun: o.dryRun,
      noWrite: o.noWrite,
      freeze: o.mode === "publish",
    });
    published.push({ handle: b.handle, result });
    set(
      result.tool_id ?? `{tool_id of ${b.handle}}`,
      o.mode === "publish" ? "published" : "working",
    );
  }
  return { ids, lock, published };
}

/**
 * The manifest with every `bundled:<h>`, `required:bundled:<h>` and `optional:bundled:<h>`
 * string replaced by the tool_id. A ref to a handle that did not resolve is exit 4: the server
 * would store a manifest that names no executa.
 */
export function substituteBundledRefs(
  manifest: JsonObject,
  ids: Readonly<Record<string, string>>,
  file: string,
): JsonObject {
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return substitute(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === "object") {
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    }
    return v;
  };
  const substitute = (s: string): string => {
    const m = /^(required:|optional:)?(bundled:.*)$/.exec(s);
    if (!m) return s;
    const handle = bundledHandle(m[2]!);
    const id = handle === undefined ? undefined : ids[handle];
    if (id === undefined) {
      throw new ExitError(
        EXIT_INVALID_PROJECT,
        `${file}: "${s}" names bundled executa "${handle ?? ""}", which did not resolve; declare it in app.json bundled_executas or pass --executa-id ${handle ?? "<handle>"}=<tool_id>`,
      );
    }
    return (m[1] ?? "") + id;
  };
  return walk(manifest) as JsonObject;
}

/** `bundle/anna-tool-ids.js`: the handle → tool_id map bundles read at runtime. */
export function toolIdsScript(ids: Readonly<Record<string, string>>): string {
  return (
    "// Generated by anna-app apps publish/push: bundled executa handle → tool_id.\n" +
    `window.__ANNA_TOOL_IDS__ = ${JSON.stringify(ids)};\n`
  );
}
