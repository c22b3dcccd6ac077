// `anna-app apps rename-slug <new-slug>` (R170, real-world-cli.md §9.5): only while the app is
// DRAFT or REJECTED, never published and without installs (the server enforces it and says
// which). The app is taken from .anna/app.json for this host (whatever its slug), else looked
// up by the folder's slug; then app.json, manifest.json and .anna/app.json get the new slug.
import { APP_SLUG_PATTERN } from "@anna-ai/app-schema";
import type { CommandSpec, ParsedArgs } from "../cli/args.js";
import { EXIT_OK, usageError } from "../cli/exit-error.js";
import type { CliIo } from "../cli/io.js";
import { NexusRequestError } from "../account/nexus-error.js";
import { ACCOUNT_FLAG, accountFlag, selectAccount } from "../account/select-account.js";
import { readAppIdentity, writeAppIdentity } from "../publish/app-identity.js";
import { APPS, requireAppBySlug } from "../publish/app-resolve.js";
import { cwdOf, CWD_FLAG } from "../publish/cwd-flag.js";
import { writeJsonAtomic } from "../publish/json-file.js";
import { JSON_FLAG } from "../publish/publish-flags.js";
import { MANIFEST_FLAG, projectDocs } from "./apps-sync-meta.js";
import type { CommandModule } from "./registry.js";

const NAME = "apps rename-slug";

const spec: CommandSpec = {
  name: NAME,
  summary: "Rename the app's slug (only before its first publish, without installs)",
  positionals: [{ name: "new-slug", description: "3–80 of a-z, 0-9 and '-'", required: true }],
  flags: [CWD_FLAG, MANIFEST_FLAG, ACCOUNT_FLAG, JSON_FLAG],
  examples: [
    "anna-app apps rename-slug focus-timer",
    "anna-app apps rename-slug focus-timer --json --account https://nexus.example.com",
    "anna-app apps rename-slug focus-timer --cwd apps/focus-flow --manifest apps/focus-flow/manifest.json",
  ],
};

export const command: CommandModule = {
  spec,
  run: async (args: ParsedArgs, io: CliIo): Promise<number> => {
    const [next, extra] = args.positionals;
    if (next === undefined) throw usageError("give the new slug", NAME);
    if (extra !== undefined) throw usageError(`unexpected argument '${extra}'`, NAME);
    if (!APP_SLUG_PATTERN.test(next)) {
      throw usageError(
        `'${next}' is not a slug: 3–80 of a-z, 0-9 and '-', starting and ending with a letter or digit`,
        NAME,
      );
    }
    const dir = cwdOf(args.flags, io);
    const docs = await projectDocs(dir, args.flags.manifest);
    const { client, host } = await selectAccount(io.env, {
      command: NAME,
      account: accountFlag(args.flags),
    });
    const cached = await readAppIdentity(dir, host);
    const appId = cached?.app_id ?? (await requireAppBySlug(client, host, docs.slug)).id;
    let res;
    try {
      res = await client.request<{ slug?: string } | null>("PATCH", `${APPS}/${appId}`, {
        body: { slug: next },
        what: `renaming ${docs.slug} to ${next}`,
      });
    } catch (e) {
      if (
        e instanceof NexusRequestError &&
        e.code !== undefined &&
        e.status !== undefined &&
        e.status < 500 &&
        e.status !== 401
      ) {
        throw new NexusRequestError(
          e.exitCode,
          `${e.code}: ${e.message.replace(/^.*?failed \([^)]*\): /, "")}`,
          { status: e.status, code: e.code, cause: e },
        );
      }
      throw e;
    }
    const slug = res.body?.slug ?? next;
    for (const [file, doc] of [
      [docs.appJsonFile, docs.appJson],
      [docs.manifestFile, docs.manifest],
    ] as const) {
      if (doc !== undefined && typeof doc.slug === "string")
        await writeJsonAtomic(file, { ...doc, slug });
    }
    await writeAppIdentity(dir, {
      host,
      app_id: appId,
      slug,
      ...(cached?.handle === undefined ? {} : { handle: cached.handle }),
    });
    io.stdout.write(
      args.flags.json === true
        ? JSON.stringify({ host, app_id: appId, old_slug: cached?.slug ?? docs.slug, slug }) + "\n"
        : `${io.style.green("✓")} renamed ${cached?.slug ?? docs.slug} to ${slug}; app.json and .anna/app.json updated\n`,
    );
    return EXIT_OK;
  },
};
