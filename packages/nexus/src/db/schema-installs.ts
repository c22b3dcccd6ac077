// Tables of installs (migration 0009): the executas a user has and the users who ever installed
// an app. The columns 0009 adds to `user_apps` are on UserAppsTable (schema-apps.ts). Same
// conventions as schema.ts (epoch ms, booleans 0/1).
import type { Generated } from "kysely";

/** An executa a user has (`UserExecuta`): auto-installed by an app, or installed by the user. */
export interface UserExecutasTable {
  id: Generated<number>;
  user_id: number;
  executa_id: number;
  /** The frozen version it was installed at (the app's `frozen_executas`, else the newest). */
  executa_version_id: number | null;
  /** `app` (auto-installed, removed when no installed app requires it) or `user` (kept). */
  source: "app" | "user";
  /** The app whose install created it; NULL when the user installed it themselves. */
  source_app_id: number | null;
  enabled: Generated<number>;
  installed_at: number;
  updated_at: number;
}

/** Each user who ever installed an app, once: what `apps.install_count` counts. */
export interface AppInstallersTable {
  app_id: number;
  user_id: number;
  first_installed_at: number;
}

export interface InstallTables {
  user_executas: UserExecutasTable;
  app_installers: AppInstallersTable;
}
