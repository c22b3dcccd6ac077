import { describe, expect, it } from "vitest";
import {
  StorageDeleteParamsSchema,
  StorageGetParamsSchema,
  StorageGetResultSchema,
  StorageListParamsSchema,
  StorageListResultSchema,
  StorageSetParamsSchema,
  StorageSetResultSchema,
  clampStorageListLimit,
  resolveStorageScope,
} from "../../src/executa/storage.js";

describe("storage/*", () => {
  it("accepts a get without scope and defaults it to tool (H14)", () => {
    const parsed = StorageGetParamsSchema.parse({
      key: "lastRun/cursor",
      metadata: { executa_invoke_id: "" },
    });
    expect(resolveStorageScope(parsed.scope)).toBe("tool");
  });

  it("rejects an unknown scope, an empty key and a key over 1024 characters", () => {
    expect(StorageGetParamsSchema.safeParse({ key: "k", scope: "global" }).success).toBe(false);
    expect(StorageGetParamsSchema.safeParse({ key: "" }).success).toBe(false);
    expect(StorageGetParamsSchema.safeParse({ key: "k".repeat(1025) }).success).toBe(false);
  });

  it("accepts a set with if_match, ttl and user metadata", () => {
    const parsed = StorageSetParamsSchema.parse({
      scope: "tool",
      key: "k",
      value: { n: 1 },
      if_match: "etag-1",
      ttl_seconds: 86_400,
      metadata: { executa_invoke_id: "inv", owner: "me" },
      tags: ["a"],
    });
    expect(parsed.metadata?.["owner"]).toBe("me");
  });

  it("accepts a set whose value is falsy, and requires the value key", () => {
    expect(StorageSetParamsSchema.safeParse({ key: "k", value: 0 }).success).toBe(true);
    expect(StorageSetParamsSchema.safeParse({ key: "k", value: null }).success).toBe(true);
    expect(StorageSetParamsSchema.safeParse({ key: "k" }).success).toBe(false);
  });

  it("rejects a ttl outside 1…31 536 000 s and more than 32 tags", () => {
    expect(StorageSetParamsSchema.safeParse({ key: "k", value: 1, ttl_seconds: 0 }).success).toBe(
      false,
    );
    expect(
      StorageSetParamsSchema.safeParse({ key: "k", value: 1, ttl_seconds: 31_536_001 }).success,
    ).toBe(false);
    const tags = Array.from({ length: 33 }, (_, i) => `t${i}`);
    expect(StorageSetParamsSchema.safeParse({ key: "k", value: 1, tags }).success).toBe(false);
  });

  it("clamps list limits instead of rejecting them (R45)", () => {
    expect(StorageListParamsSchema.safeParse({ limit: 5000 }).success).toBe(true);
    expect(clampStorageListLimit(5000)).toBe(1000);
    expect(clampStorageListLimit(0)).toBe(1);
    expect(clampStorageListLimit(undefined)).toBe(100);
    expect(clampStorageListLimit(12.7)).toBe(12);
  });

  it("describes hit and miss get results with exists always present", () => {
    expect(
      StorageGetResultSchema.safeParse({ value: null, exists: false, etag: null }).success,
    ).toBe(true);
    expect(StorageGetResultSchema.safeParse({ value: "v", exists: true, etag: "e" }).success).toBe(
      true,
    );
    expect(StorageGetResultSchema.safeParse({ value: null, etag: null }).success).toBe(false);
  });

  it("requires etag, generation and size on set results", () => {
    expect(
      StorageSetResultSchema.safeParse({ etag: "e", generation: 2, size_bytes: 10 }).success,
    ).toBe(true);
    expect(StorageSetResultSchema.safeParse({ generation: 2, size_bytes: 10 }).success).toBe(false);
  });

  it("accepts delete with if_match and list results with a null cursor", () => {
    expect(
      StorageDeleteParamsSchema.safeParse({ key: "k", scope: "user", if_match: "e" }).success,
    ).toBe(true);
    expect(
      StorageListResultSchema.safeParse({
        items: [{ key: "a", etag: "e", size_bytes: 3 }],
        next_cursor: null,
      }).success,
    ).toBe(true);
  });
});

describe("storage params with nulls", () => {
  it("reads a null scope as tool and a null limit as the default", () => {
    const get = StorageGetParamsSchema.parse({
      key: "k",
      scope: null,
      metadata: null,
      context: null,
    });
    expect(resolveStorageScope(get.scope)).toBe("tool");
    const list = StorageListParamsSchema.parse({
      scope: null,
      prefix: null,
      cursor: null,
      limit: null,
    });
    expect(clampStorageListLimit(list.limit)).toBe(100);
  });
});
