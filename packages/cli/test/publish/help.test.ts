// `--help` of every publish command documents each flag with an example, and the command table
// lists it under its name with the same summary (as the account commands do).
import { describe, expect, it } from "vitest";
import { renderHelp } from "../../src/cli/args.js";
import { COMMANDS } from "../../src/commands/registry.js";
import { command as cacheClear } from "../../src/commands/executa-cache-clear.js";
import { command as del } from "../../src/commands/executa-delete.js";
import { command as install } from "../../src/commands/executa-install.js";
import { command as list } from "../../src/commands/executa-list.js";
import { command as executaPublish } from "../../src/commands/executa-publish.js";
import { command as register } from "../../src/commands/executa-register.js";
import { command as status } from "../../src/commands/executa-status.js";
import {
  addCommand as trustedAdd,
  listCommand as trustedList,
  removeCommand as trustedRemove,
} from "../../src/commands/executa-trusted-publisher.js";
import { command as uploadBinaries } from "../../src/commands/executa-upload-binaries.js";
import { command as unpublish } from "../../src/commands/executa-unpublish.js";
import { command as versions } from "../../src/commands/executa-versions.js";
import { command as yank } from "../../src/commands/executa-yank.js";
import { command as publish } from "../../src/commands/publish.js";
import type { CommandModule } from "../../src/commands/registry.js";
import { command as appsCut } from "../../src/commands/apps-cut.js";
import { command as appsDiscard } from "../../src/commands/apps-discard.js";
import { command as appsGrants } from "../../src/commands/apps-grants.js";
import { command as appsList } from "../../src/commands/apps-list.js";
import { command as appsPublish } from "../../src/commands/apps-publish.js";
import { command as appsPush } from "../../src/commands/apps-push.js";
import { command as appsRelease } from "../../src/commands/apps-release.js";
import { command as appsRenameSlug } from "../../src/commands/apps-rename-slug.js";
import {
  archive as appsArchive,
  del as appsDelete,
  unarchive as appsUnarchive,
  unpublish as appsUnpublish,
} from "../../src/commands/apps-state.js";
import { command as appsStatus } from "../../src/commands/apps-status.js";
import { command as appsSubmitReview } from "../../src/commands/apps-submit-review.js";
import { command as appsSyncMeta } from "../../src/commands/apps-sync-meta.js";
import { command as appsVersions } from "../../src/commands/apps-versions.js";

const PUBLISH_COMMANDS: Readonly<Record<string, CommandModule>> = {
  publish,
  "executa publish": executaPublish,
  "executa list": list,
  "executa status": status,
  "executa versions": versions,
  "executa unpublish": unpublish,
  "executa yank": yank,
  "executa delete": del,
  "executa cache-clear": cacheClear,
  "executa register": register,
  "executa install": install,
  "executa upload-binaries": uploadBinaries,
  "executa trusted-publisher add": trustedAdd,
  "executa trusted-publisher list": trustedList,
  "executa trusted-publisher remove": trustedRemove,
  "apps push": appsPush,
  "apps cut": appsCut,
  "apps release": appsRelease,
  "apps publish": appsPublish,
  "apps discard": appsDiscard,
  "apps submit-review": appsSubmitReview,
  "apps list": appsList,
  "apps status": appsStatus,
  "apps versions": appsVersions,
  "apps grants": appsGrants,
  "apps sync-meta": appsSyncMeta,
  "apps rename-slug": appsRenameSlug,
  "apps unpublish": appsUnpublish,
  "apps archive": appsArchive,
  "apps unarchive": appsUnarchive,
  "apps delete": appsDelete,
};

describe.each(Object.entries(PUBLISH_COMMANDS))("%s --help", (name, command) => {
  it("is registered under its name with its own summary", async () => {
    const entry = COMMANDS.find((c) => c.path.join(" ") === name);
    expect(entry, `${name} is not in the command table`).toBeDefined();
    expect(await entry!.load()).toBe(command);
    expect(entry?.summary).toBe(command.spec.summary);
    expect(command.spec.name).toBe(name);
  });

  it("shows every flag in an example", () => {
    const help = renderHelp(command.spec);
    const examples = help.slice(help.indexOf("Examples:"));
    for (const flag of command.spec.flags.map((f) => f.name)) {
      expect(help).toMatch(new RegExp(`^  --${flag}\\b`, "m"));
      expect(examples, `--${flag} has no example`).toMatch(new RegExp(`--${flag}(\\s|$)`, "m"));
    }
  });
});
