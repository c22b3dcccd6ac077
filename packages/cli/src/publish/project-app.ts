// The app a cut/release/discard/submit-review in this folder acts on, and the account to use.
import type { ParsedArgs } from "../cli/args.js";
import type { CliIo } from "../cli/io.js";
import type { NexusClient } from "../account/nexus-client.js";
import { accountFlag, selectAccount } from "../account/select-account.js";
import { APP_SLUG_PATTERN } from "@anna-ai/app-schema";
import { type AppRow, resolveProjectApp } from "./app-resolve.js";
import { cwdOf } from "./cwd-flag.js";
import { readJsonObject } from "./json-file.js";
import path from "node:path";

export async function projectApp(
  args: ParsedArgs,
  io: CliIo,
  command: string,
  slug: string | undefined = typeof args.flags.slug === "string" ? args.flags.slug : undefined,
): Promise<{ client: NexusClient; host: string; dir: string; app: AppRow }> {
  const { client, host } = await selectAccount(io.env, {
    command,
    account: accountFlag(args.flags),
  });
  const dir = cwdOf(args.flags, io);
  const app = await resolveProjectApp(client, host, dir, slug, async () => {
    for (const f of ["app.json", "manifest.json"]) {
      const s = (await readJsonObject(path.join(dir, f)))?.slug;
      if (typeof s === "string" && APP_SLUG_PATTERN.test(s)) return s;
    }
    return undefined;
  });
  return { client, host, dir, app };
}
