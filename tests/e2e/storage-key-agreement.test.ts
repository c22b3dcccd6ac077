// The two hosts that take storage keys — app-core's Host API (`storage.*` from an app) and
// executa-host's offline services (`storage/*` from a plugin) — accept and refuse the same keys
// and prefixes. They once disagreed on forbidden characters and on counting code points against
// UTF-16 units; the rules now live in @anna-ai/app-schema, and this pins that neither host adds
// or drops a rule of its own. Only the error codes differ (each host answers in its own catalog).
import { describe, expect, it } from "vitest";
import {
  checkKvKey as appKey,
  checkKvPrefix as appPrefix,
} from "../../packages/app-core/src/handlers/storage-keys.js";
import {
  checkKvKey as pluginKey,
  checkKvPrefix as pluginPrefix,
} from "../../packages/executa-host/src/storage/kv-keys.js";
import { STORAGE_KEY_MAX_CHARS, STORAGE_KEY_SEGMENT_MAX_CHARS } from "@anna-ai/app-schema";

const EMOJI = "\u{1f4c8}"; // one code point, two UTF-16 units

const KEYS = [
  "notes/2026-01-01",
  "ü/日本",
  "inner space/ok",
  EMOJI.repeat(STORAGE_KEY_SEGMENT_MAX_CHARS),
  EMOJI.repeat(STORAGE_KEY_SEGMENT_MAX_CHARS + 1),
  Array.from({ length: 5 }, () => EMOJI.repeat(200)).join("/"),
  "x".repeat(STORAGE_KEY_MAX_CHARS),
  "x".repeat(STORAGE_KEY_MAX_CHARS + 1),
  ...["\u0000", "\u007f", "\\", "\u200b", "\ufeff", "\u202e", "\u2066"].map((c) => `a${c}b`),
  "/lead",
  "trail/",
  "a//b",
  "../up",
  "a/./b",
  "notes/",
];

function verdict(check: () => unknown): "ok" | "refused" {
  try {
    check();
    return "ok";
  } catch {
    return "refused";
  }
}

describe("storage keys: app-core and executa-host agree", () => {
  it.each(KEYS.map((key) => [JSON.stringify(key).slice(0, 40), key]))("key %s", (_label, key) => {
    const app = verdict(() => appKey(key));
    expect({ key, plugin: verdict(() => pluginKey(key, "storage/get")) }).toEqual({
      key,
      plugin: app,
    });
  });

  it.each(KEYS.map((key) => [JSON.stringify(key).slice(0, 40), key]))(
    "prefix %s",
    (_label, key) => {
      const app = verdict(() => appPrefix(key));
      expect({ key, plugin: verdict(() => pluginPrefix(key, "storage/list")) }).toEqual({
        key,
        plugin: app,
      });
    },
  );

  it("the cases are not all accepted or all refused (the test can tell hosts apart)", () => {
    const verdicts = new Set(KEYS.map((key) => verdict(() => appKey(key))));
    expect(verdicts).toEqual(new Set(["ok", "refused"]));
  });
});
