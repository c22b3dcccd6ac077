// The App Store service routes/store.ts serves: the public catalogue, installs and updates, and
// what each user has (apps, executas, grants). Built once from the database and clock and
// injected through AppDeps like the Executa Hub.
import type { Kysely } from "kysely";
import type { Clock } from "../core/clock.js";
import type { Database } from "../db/schema.js";
import { storeCatalogue } from "./catalogue.js";
import { storeInstalls } from "./installs.js";
import { myApps } from "./my-apps.js";
import { userExecutas } from "./user-executas.js";

export function appStore(deps: { db: Kysely<Database>; clock: Clock }) {
  return {
    catalogue: storeCatalogue(deps.db),
    installs: storeInstalls(deps.db, deps.clock),
    apps: myApps(deps.db),
    executas: userExecutas(deps.db, deps.clock),
  };
}

export type AppStore = ReturnType<typeof appStore>;
