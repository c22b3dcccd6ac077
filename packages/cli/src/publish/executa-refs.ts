// Naming one of your executas on the command line (real-world-cli.md §4 "Resolving a ref"): the
// list E3 is fetched and the ref matched against it. Read-only commands take an exact tool_id,
// else an exact slug, else the first tool_id with the ref as one `-` segment; destructive ones
// take an exact tool_id, else an exact slug, else a substring, and refuse an ambiguous match.
import type { ParsedArgs } from "../cli/args.js";
import { EXIT_REQUEST_FAILED, ExitError, usageError } from "../cli/exit-error.js";
import type { CliIo } from "../cli/io.js";
import type { NexusClient } from "../account/nexus-client.js";
import { accountFlag, selectAccount } from "../account/select-account.js";

export interface ExecutaRow {
  id: number;
  tool_id: string;
  slug?: string;
  name?: string;
  visibility?: string;
  executa_type?: string;
  [k: string]: unknown;
}

/** The one `<ref>` argument of an executa command: its slug or tool_id. */
export function refArgument(args: ParsedArgs, command: string): string {
  const [ref, extra] = args.positionals;
  if (ref === undefined) throw usageError("give the executa's slug or tool_id", command);
  if (extra !== undefined) throw usageError(`unexpected argument '${extra}'`, command);
  return ref;
}

/** Signs in with the saved account (`--account` picks one) and finds `ref` among your executas. */
export async function findOwnExecuta(
  args: ParsedArgs,
  io: CliIo,
  command: string,
  ref: string,
  mode: "read" | "destructive",
): Promise<{ client: NexusClient; host: string; row: ExecutaRow }> {
  const { client, host } = await selectAccount(io.env, {
    command,
    account: accountFlag(args.flags),
  });
  return { client, host, row: resolveRef(await listExecutas(client), ref, mode, host) };
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
