// The one `<slug>` argument of the app commands that name an app, and signing in for it.
import type { ParsedArgs } from "../cli/args.js";
import { usageError } from "../cli/exit-error.js";
import type { CliIo } from "../cli/io.js";
import type { NexusClient } from "../account/nexus-client.js";
import { accountFlag, selectAccount } from "../account/select-account.js";
import { type AppRow, requireAppBySlug } from "./app-resolve.js";

export function slugArgument(args: ParsedArgs, command: string): string {
  const [slug, extra] = args.positionals;
  if (slug === undefined) throw usageError("give the app's slug (see anna-app apps list)", command);
  if (extra !== undefined) throw usageError(`unexpected argument '${extra}'`, command);
  return slug;
}

/** Signs in (`--account` picks one) and looks the app up by slug (exit 5 when it is not yours). */
export async function findOwnApp(
  args: ParsedArgs,
  io: CliIo,
  command: string,
  slug: string,
): Promise<{ client: NexusClient; host: string; app: AppRow }> {
  const { client, host } = await selectAccount(io.env, {
    command,
    account: accountFlag(args.flags),
  });
  return { client, host, app: await requireAppBySlug(client, host, slug) };
}
