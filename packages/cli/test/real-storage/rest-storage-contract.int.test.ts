// The storage contract suite (executa-test) against the CLI's real storage: `storage/*` and
// `files/*` forwarded over real HTTP to a real Nexus (SQLite and PostgreSQL, filesystem blobs) with storage
// tokens minted by `dev/storage/mint`, exactly as `executa dev --storage real` does. The suite's
// callers become Nexus developers; each (user, tool, app, quota) gets its own token, so user,
// tool and app isolation is the server's, enforced through the token alone.
import type { ServiceContext, StorageGrant } from "@anna-ai/executa-host";
import { describeStorageContract } from "@anna-ai/executa-test/storage-contract";
import { NexusClient } from "../../src/account/nexus-client.js";
import {
  devStorageTokens,
  type DevStorageTokens,
} from "../../src/real-storage/dev-storage-tokens.js";
import { createRestStorage, type StorageTokenSource } from "../../src/real-storage/storage-rest.js";
import { describe } from "vitest";
// Nexus's own dialect cases: a temp SQLite file, and a throwaway PostgreSQL cluster where its
// binaries exist (skipped with the reason otherwise).
import { DIALECTS, useDialectCleanup } from "../../../nexus/test/helpers/dialects.js";
import { startStorageNexus, type StorageNexus } from "./storage-nexus.js";

type Ctx = ServiceContext<StorageGrant>;

useDialectCleanup();

for (const d of DIALECTS) {
  if (d.skip) {
    describe.skip(`storage contract: rest client against a Nexus on ${d.name}`, () => {});
    continue;
  }
  describeStorageContract(`rest client against a Nexus on ${d.name}`, async ({ clock, limits }) =>
    restStorageOn(await startStorageNexus({ clock, limits, database: await d.open() }), clock),
  );
}

function restStorageOn(nexus: StorageNexus, clock: () => number) {
  const pats = new Map<string, Promise<string>>();
  const sources = new Map<string, Promise<DevStorageTokens>>();
  const patOf = (userId: string) => {
    let pat = pats.get(userId);
    if (pat === undefined) {
      pat = nexus.developer(`${userId}@contract.example`).then((d) => d.pat);
      pats.set(userId, pat);
    }
    return pat;
  };
  const sourceFor = (ctx: Ctx | undefined): Promise<DevStorageTokens> => {
    if (ctx === undefined) throw new Error("the contract always calls with a context");
    const appId = ctx.app?.appId;
    const key = JSON.stringify([ctx.userId, ctx.toolId, appId, ctx.grant.quotaBytes]);
    let source = sources.get(key);
    if (source === undefined) {
      source = patOf(ctx.userId).then((pat) =>
        devStorageTokens({
          client: new NexusClient({ host: nexus.url, pat }),
          appSlug: appId ?? "contract-app",
          toolId: ctx.toolId,
          // Outside an app invoke the token has no app scope, as the router would allow none.
          allowedScopes: appId === undefined ? ["user", "tool"] : ["user", "tool", "app"],
          ...(ctx.grant.quotaBytes === undefined ? {} : { quotaBytes: ctx.grant.quotaBytes }),
          now: clock,
        }),
      );
      sources.set(key, source);
    }
    return source;
  };
  const tokens: StorageTokenSource = {
    token: async (ctx) => (await sourceFor(ctx)).token(),
    invalidate: (ctx) => void sourceFor(ctx).then((s) => s.invalidate()),
  };
  const { storage, files } = createRestStorage({ host: nexus.url, tokens });
  return { storage, files, close: () => nexus.close() };
}
