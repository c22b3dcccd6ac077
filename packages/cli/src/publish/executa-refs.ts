// Naming one of your executas on the command line (real-world-cli.md §4 "Resolving a ref"): the
// list E3 is fetched and the ref matched against it. Read-only commands take an exact tool_id,
// else an exact slug, else the first tool_id with the ref as one `-` segment; destructive ones
// take an exact tool_id, else an exact slug, else a substring, and refuse an ambiguous match.
import { EXIT_REQUEST_FAILED, ExitError } from "../cli/exit-error.js";
import type { NexusClient } from "../account/nexus-client.js";

export interface ExecutaRow {
  id: number;
  tool_id: string;
  slug?: string;
  name?: string;
  visibility?: string;
  executa_type?: string;
  [k: string]: unknown;
}

export async function listExecutas(client: NexusClient): Promise<ExecutaRow[]> {
  const res = await client.get("/api/v1/executas/my/tools", { what: "listing your executas" });
  return (Array.isArray(res.body) ? res.body : []) as ExecutaRow[];
}

export function resolveRef(
  rows: readonly ExecutaRow[],
  ref: string,
  mode: "read" | "destructive",
  host: string,
): ExecutaRow {
  const exact = rows.find((r) => r.tool_id === ref);
  if (exact) return exact;
  const bySlug = rows.filter((r) => r.slug === ref);
  const loose =
    bySlug.length > 0
      ? bySlug
      : mode === "read"
        ? rows.filter((r) => r.tool_id.split("-").includes(ref)).slice(0, 1)
        : rows.filter((r) => r.tool_id.includes(ref));
  if (loose.length === 1) return loose[0]!;
  if (loose.length === 0) {
    throw new ExitError(
      EXIT_REQUEST_FAILED,
      `no executa of yours on ${host} matches '${ref}'; see \`anna-app executa list\``,
    );
  }
  throw new ExitError(
    EXIT_REQUEST_FAILED,
    `'${ref}' is ambiguous on ${host}: ${loose.map((r) => r.tool_id).join(", ")}; give the full tool_id`,
  );
}
