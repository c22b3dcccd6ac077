// A public Hub tool whose described manifest declares credentials, a credential vault under a
// random KEK, and a harness serving both: what the credential tests share.
import { randomBytes } from "node:crypto";
import type { CredentialDeclaration } from "@anna-ai/app-schema";
import { manualClock } from "../../src/core/clock.js";
import { sqlCredentialVault } from "../../src/credentials/credential-vault.js";
import type { DatabaseHandle } from "../../src/db/connect.js";
import { sqlManifestCache } from "../../src/executas/manifest-cache.js";
import { kekFromBytes } from "../../src/tokens/key-encryption.js";
import { harness } from "../helpers/harness.js";
import { storeFixture } from "../helpers/store-fixture.js";

export const WEATHER_CREDENTIALS: CredentialDeclaration[] = [
  { name: "WEATHER_API_KEY", display_name: "OpenWeatherMap API Key", required: true },
  { name: "WEATHER_UNITS", required: false, sensitive: false, default: "metric" },
];

export async function credentialWorld(
  handle: DatabaseHandle,
  declared: CredentialDeclaration[] = WEATHER_CREDENTIALS,
) {
  const kek = kekFromBytes(randomBytes(32), "test");
  const clock = manualClock();
  const vault = sqlCredentialVault({ db: handle.db, kek, clock });
  const h = harness(handle, {}, { clock, credentials: vault });
  const fx = storeFixture(handle.db, h.stores, h.clock);
  const tool = await fx.tool(`weather-${randomBytes(3).toString("hex")}`, { visibility: "public" });
  // What the runtime caches after the plugin's first `describe`.
  await sqlManifestCache(handle.db).put(
    tool.versionId,
    { name: "weather", version: "1.0.0", tools: [{ name: "get_weather" }], credentials: declared },
    h.clock.now(),
  );
  return { h, vault, kek, tool };
}
