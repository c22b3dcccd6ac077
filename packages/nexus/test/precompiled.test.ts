// precompiled(): one compile, then the same SQL with each call's arguments, on both dialects.
import { describe, expect, it } from "vitest";
import { precompiled } from "../src/db/precompiled.js";
import { DIALECTS, useDialectCleanup } from "./helpers/dialects.js";

useDialectCleanup();

describe.each(DIALECTS)("precompiled queries on $name", (d) => {
  it.skipIf(d.skip)(
    "fills each placeholder with its argument and keeps constant values",
    async () => {
      const { db } = await d.open();
      for (const [email, at] of [
        ["a@x.io", 1],
        ["b@x.io", 2],
        ["c@x.io", 3],
      ] as const) {
        await db
          .insertInto("users")
          .values({
            email,
            password_hash: "h",
            is_admin: 0,
            is_verified: at === 2 ? 1 : 0,
            is_verified_developer: 0,
            developer_activated_at: null,
            developer_tos_version: null,
            developer_revoked_at: null,
            developer_handle: null,
            created_at: at,
            updated_at: at,
          })
          .execute();
      }
      let builds = 0;
      // Arguments in the opposite order to their use, and a constant (is_verified = 0) between.
      const find = precompiled(db, 2, (after: number, email: string) => {
        builds++;
        return db
          .selectFrom("users")
          .select("email")
          .where("email", "=", email)
          .where("is_verified", "=", 0)
          .where("created_at", ">", after);
      });
      expect(await find(0, "a@x.io")).toEqual([{ email: "a@x.io" }]);
      expect(await find(1, "a@x.io")).toEqual([]);
      expect(await find(0, "b@x.io")).toEqual([]); // the constant still applies
      expect(await find(2, "c@x.io")).toEqual([{ email: "c@x.io" }]);
      expect(builds).toBe(1);
    },
  );

  it.skipIf(d.skip)("refuses a query that never uses an argument", async () => {
    const { db } = await d.open();
    const bad = precompiled(db, 2, (email: string, _unused: string) =>
      db.selectFrom("users").select("id").where("email", "=", email),
    );
    await expect(bad("a@x.io", "unused")).rejects.toThrow(/never uses argument 1/);
  });
});
