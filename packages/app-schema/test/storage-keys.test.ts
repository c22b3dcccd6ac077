// The storage key rules both hosts share (app-core's Host API and executa-host's offline
// services): these cases are where the two used to disagree (forbidden characters; code points
// against UTF-16 units), pinned here once.
import { describe, expect, it } from "vitest";
import {
  STORAGE_KEY_MAX_CHARS,
  STORAGE_KEY_SEGMENT_MAX_CHARS,
  storageKeyProblem,
  storageSegmentProblem,
} from "../src/index.js";

const EMOJI = "\u{1f4c8}"; // one code point, two UTF-16 units

describe("storage key rules", () => {
  it("accepts keys the platform stores, counting code points", () => {
    for (const key of [
      "notes/2026-01-01",
      "a.b/c..d",
      "ü/日本",
      "inner space/ok",
      "s".repeat(STORAGE_KEY_SEGMENT_MAX_CHARS),
      // 600 emoji: 1200 UTF-16 units, 600 characters.
      Array.from({ length: 5 }, () => EMOJI.repeat(120)).join("/"),
      `${"a".repeat(STORAGE_KEY_SEGMENT_MAX_CHARS)}/`.repeat(7) + "b".repeat(120),
    ]) {
      expect({ key, problem: storageKeyProblem(key) }).toEqual({ key, problem: undefined });
    }
    expect(EMOJI.repeat(STORAGE_KEY_SEGMENT_MAX_CHARS)).toHaveLength(256);
    expect(storageKeyProblem(EMOJI.repeat(STORAGE_KEY_SEGMENT_MAX_CHARS))).toBeUndefined();
  });

  it("refuses every forbidden character class: ASCII controls, backslash, zero-width, BiDi", () => {
    const forbidden = [
      "\u0000",
      "\u0009",
      "\u001f",
      "\u007f",
      "\\",
      "\u200b",
      "\u200c",
      "\u200d",
      "\u2060",
      "\u2061",
      "\u2064",
      "\ufeff",
      "\u200e",
      "\u200f",
      "\u061c",
      "\u202a",
      "\u202e",
      "\u2066",
      "\u2069",
    ];
    for (const c of forbidden) {
      const key = `a${c}b`;
      expect({ c: c.codePointAt(0)?.toString(16), problem: storageKeyProblem(key) }).toEqual({
        c: c.codePointAt(0)?.toString(16),
        problem: {
          kind: "shape",
          message:
            "control characters, backslashes, zero-width and BiDi characters are not allowed",
        },
      });
    }
  });

  it("refuses bad shapes and lengths with the kind each host maps to its own error", () => {
    expect(storageKeyProblem("x".repeat(STORAGE_KEY_MAX_CHARS + 1))?.kind).toBe("too_long");
    expect(storageKeyProblem(EMOJI.repeat(STORAGE_KEY_MAX_CHARS + 1))?.kind).toBe("too_long");
    for (const key of [
      "/abs",
      "a//b",
      "a/",
      "a/./b",
      "..",
      " lead",
      "trail /x",
      "lone\ud83dsurrogate",
      "s".repeat(STORAGE_KEY_SEGMENT_MAX_CHARS + 1),
      EMOJI.repeat(STORAGE_KEY_SEGMENT_MAX_CHARS + 1),
    ]) {
      expect({ key, kind: storageKeyProblem(key)?.kind }).toEqual({ key, kind: "shape" });
    }
  });

  it("lets a list prefix end with one '/', and checks segments without a length for files paths", () => {
    expect(storageKeyProblem("notes/", { prefix: true })).toBeUndefined();
    expect(storageKeyProblem("notes//", { prefix: true })?.kind).toBe("shape");
    expect(storageKeyProblem("notes/")?.kind).toBe("shape");
    expect(storageSegmentProblem("s".repeat(500))).toBeUndefined();
    expect(storageSegmentProblem("..")).toBe("'.' and '..' segments are not allowed");
  });
});
