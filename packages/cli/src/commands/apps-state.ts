// `anna-app apps unpublish|archive|unarchive|delete <slug>` (R171, real-world-cli.md §9.5): the
// status moves the author makes (A21, A22, A23, A5). Unpublish, archive and delete need
// `--yes --confirm <slug>` and are refused outright under ANNA_CLI_NO_DESTRUCTIVE=1 (exit 7);
// unarchive needs `--yes`. The server's guards (delete refused while installs exist, …) come
// back as one line naming the state.
import type { CommandSpec, ParsedArgs } from "../cli/args.js";
import { EXIT_OK, usageError } from "../cli/exit-error.js";
import type { CliIo } from "../cli/io.js";
import { ACCOUNT_FLAG } from "../account/select-account.js";
import { APPS } from "../publish/app-resolve.js";
import { findOwnApp, slugArgument } from "../publish/app-slug-arg.js";
import { DESTRUCTIVE_FLAGS, requireConfirmation } from "../publish/confirm.js";
import { JSON_FLAG } from "../publish/publish-flags.js";
import type { CommandModule } from "./registry.js";

interface StateCommand {
  verb: "unpublish" | "archive" | "unarchive" | "delete";
  summary: string;
  description: string;
  done: (slug: string, status: string | null) => string;
}

const EX = "https://nexus.example.com";

function stateCommand(c: StateCommand): CommandModule {
  const name = `apps ${c.verb}`;
  const guarded = c.verb !== "unarchive";
  const spec: CommandSpec = {
    name,
    summary: c.summary,
    description: c.description,
    positionals: [{ name: "slug", description: "The app", required: true }],
    flags: [
      ...(guarded
        ? DESTRUCTIVE_FLAGS
        : [{ name: "yes", type: "boolean" as const, description: "Confirm" }]),
      ACCOUNT_FLAG,
      JSON_FLAG,
    ],
    examples: guarded
      ? [
          `anna-app apps ${c.verb} focus-flow --yes --confirm focus-flow`,
          `anna-app apps ${c.verb} focus-flow --yes --confirm focus-flow --json --account ${EX}`,
        ]
      : [
          `anna-app apps ${c.verb} focus-flow --yes`,
          `anna-app apps ${c.verb} focus-flow --yes --json --account ${EX}`,
        ],
  };
  return {
    spec,
    run: async (args: ParsedArgs, io: CliIo): Promise<number> => {
      const slug = slugArgument(args, name);
      if (guarded) requireConfirmation(args.flags, io.env, name, slug, []);
      else if (args.flags.yes !== true)
        throw usageError(`run it again with --yes to ${c.verb} ${slug}`, name);
      const { client, host, app } = await findOwnApp(args, io, name, slug);
      const res =
        c.verb === "delete"
          ? await client.delete<null>(`${APPS}/${app.id}`, { what: `deleting ${slug}` })
          : await client.post<{ status?: string } | null>(`${APPS}/${app.id}/${c.verb}`, {
              what: `${c.verb.replace(/e$/, "")}ing ${slug}`,
            });
      const status =
        c.verb === "delete" ? null : ((res.body as { status?: string } | null)?.status ?? null);
      io.stdout.write(
        args.flags.json === true
          ? JSON.stringify({
              host,
              app_id: app.id,
              slug,
              ...(c.verb === "delete" ? { deleted: true } : { status }),
            }) + "\n"
          : `${io.style.green("✓")} ${c.done(slug, status)}\n`,
      );
      return EXIT_OK;
    },
  };
}

export const unpublish = stateCommand({
  verb: "unpublish",
  summary: "Take a published app off the store (PUBLISHED → APPROVED; installs keep working)",
  description: "Needs --yes --confirm <slug>. Release a version again to republish.",
  done: (slug, s) =>
    `${slug} unpublished (status ${s}); \`anna-app apps release <version>\` puts it back`,
});
export const archive = stateCommand({
  verb: "archive",
  summary: "Archive an app: hidden from the store and new installs; installs keep working",
  description: "Needs --yes --confirm <slug>. Undo with `anna-app apps unarchive <slug> --yes`.",
  done: (slug, s) =>
    `${slug} archived (status ${s}); \`anna-app apps unarchive ${slug} --yes\` undoes it`,
});
export const unarchive = stateCommand({
  verb: "unarchive",
  summary: "Bring an archived app back (ARCHIVED → APPROVED)",
  description: "Needs --yes. Then `anna-app apps release <version>` to list it again.",
  done: (slug, s) => `${slug} unarchived (status ${s})`,
});
export const del = stateCommand({
  verb: "delete",
  summary: "Delete an app for good (refused while users have it installed)",
  description:
    "Needs --yes --confirm <slug>. Archive it instead to keep existing installs working.",
  done: (slug) => `deleted ${slug}`,
});
