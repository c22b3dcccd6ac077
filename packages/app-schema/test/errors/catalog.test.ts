import { describe, expect, it } from "vitest";
import {
  AGENT_ERRORS,
  ALL_ERRORS,
  EMBEDDINGS_ERRORS,
  ERRORS_BY_FAMILY,
  FILES_ERRORS,
  HOST_ERRORS,
  IMAGE_ERRORS,
  PROTOCOL_ERRORS,
  SAMPLING_ERRORS,
  STORAGE_ERRORS,
  UPLOAD_ERRORS,
  findByCode,
  findByErrorCode,
  toWireError,
} from "../../src/errors/index.js";
import type { ErrorFamily } from "../../src/errors/index.js";

/** H12 ranges (plus the protocol/host codes and the Reference ranges for credentials and web). */
const RANGES: Record<Exclude<ErrorFamily, "protocol" | "host">, [number, number][]> = {
  sampling: [[-32010, -32001]],
  storage: [[-32030, -32021]],
  agent: [[-32048, -32041]],
  image: [
    [-32110, -32101],
    [-32314, -32311],
  ],
  upload: [[-32213, -32201]],
  embeddings: [[-32508, -32501]],
  credentials: [[-32064, -32061]],
  web: [[-32528, -32521]],
};

describe("error catalog", () => {
  it("has no duplicate numeric code within a family, except the host's shared codes", () => {
    for (const [family, table] of Object.entries(ERRORS_BY_FAMILY)) {
      if (family === "host") continue;
      const codes = Object.values(table).map((entry) => entry.code);
      expect(new Set(codes).size, family).toBe(codes.length);
    }
  });

  it("gives every entry a unique, non-empty errorCode and the family of its table", () => {
    const seen = new Set<string>();
    for (const [family, table] of Object.entries(ERRORS_BY_FAMILY)) {
      for (const entry of Object.values(table)) {
        expect(entry.errorCode).toMatch(/^[A-Z][A-Z0-9_]+$/);
        expect(entry.family).toBe(family);
        expect(entry.message.length).toBeGreaterThan(0);
        expect(typeof entry.retryable).toBe("boolean");
        expect(seen.has(entry.errorCode), entry.errorCode).toBe(false);
        seen.add(entry.errorCode);
      }
    }
    expect(seen.size).toBe(ALL_ERRORS.length);
  });

  it("keeps every reverse-RPC code inside its family's range (H12)", () => {
    for (const [family, ranges] of Object.entries(RANGES)) {
      for (const entry of Object.values(ERRORS_BY_FAMILY[family as ErrorFamily])) {
        const inside = ranges.some(([low, high]) => entry.code >= low && entry.code <= high);
        expect(inside, `${entry.errorCode} ${entry.code}`).toBe(true);
      }
    }
  });

  it("prefixes reverse-family errorCodes so names never collide across families", () => {
    const prefixes: Partial<Record<ErrorFamily, string>> = {
      sampling: "SAMPLING_",
      storage: "STORAGE_",
      agent: "AGENT_",
      image: "IMAGE_",
      upload: "UPLOAD_",
      embeddings: "EMBED_",
      credentials: "CREDENTIALS_",
      web: "WEB_",
    };
    for (const entry of ALL_ERRORS) {
      const prefix = prefixes[entry.family];
      if (prefix !== undefined)
        expect(entry.errorCode.startsWith(prefix), entry.errorCode).toBe(true);
    }
  });

  it("fixes the codes the rulings and the spec name", () => {
    expect(SAMPLING_ERRORS.NOT_NEGOTIATED).toMatchObject({
      code: -32008,
      errorCode: "SAMPLING_NOT_NEGOTIATED",
      message: "not_negotiated",
      family: "sampling",
      alias: "sampling_disabled",
    });
    expect(STORAGE_ERRORS.NOT_GRANTED).toMatchObject({
      code: -32021,
      alias: "storage_not_granted",
    });
    expect(AGENT_ERRORS.NOT_GRANTED).toMatchObject({ code: -32041, alias: "agent_not_granted" });
    expect(AGENT_ERRORS.RUN_TOO_LARGE).toMatchObject({
      code: -32047,
      alias: "agent_run_too_large",
    });
    expect(AGENT_ERRORS.SESSION_NOT_FOUND.code).toBe(-32042);
    expect(IMAGE_ERRORS.NOT_NEGOTIATED.code).toBe(-32107);
    expect(IMAGE_ERRORS.NOT_GRANTED).toMatchObject({ code: -32101, alias: "image_not_granted" });
    expect(IMAGE_ERRORS.MAX_IMAGES_EXCEEDED.code).toBe(-32106);
    expect(UPLOAD_ERRORS.NOT_GRANTED).toMatchObject({
      code: -32201,
      errorCode: "UPLOAD_NOT_GRANTED",
      alias: "upload_not_granted",
    });
    expect(UPLOAD_ERRORS.NOT_NEGOTIATED.code).toBe(-32210);
    expect(UPLOAD_ERRORS.TOO_LARGE.errorCode).toBe("UPLOAD_TOO_LARGE");
    expect(EMBEDDINGS_ERRORS.NOT_NEGOTIATED.code).toBe(-32507);
    expect(HOST_ERRORS.TIMEOUT).toMatchObject({ code: -32000, errorCode: "TIMEOUT" });
    expect(HOST_ERRORS.PROCESS_EXITED).toMatchObject({ code: -32000, errorCode: "PROCESS_EXITED" });
    expect(HOST_ERRORS.UNKNOWN_INVOKE_CONTEXT.code).toBe(-32602);
    expect(HOST_ERRORS.MISSING_INVOKE_CONTEXT.code).toBe(-32602);
    expect(
      Object.values(PROTOCOL_ERRORS)
        .map((entry) => entry.code)
        .sort(),
    ).toEqual([-32000, -32600, -32601, -32602, -32603, -32700].sort());
  });

  it("shares the storage table with files/*", () => {
    expect(FILES_ERRORS).toBe(STORAGE_ERRORS);
    expect(findByCode("files", -32022)).toBe(STORAGE_ERRORS.NOT_FOUND);
  });

  it("finds entries by family and code, and refuses to guess between host entries sharing a code", () => {
    expect(findByCode("sampling", -32008)).toBe(SAMPLING_ERRORS.NOT_NEGOTIATED);
    expect(findByCode("image", -32312)).toBe(IMAGE_ERRORS.MASK_UNSUPPORTED);
    expect(findByCode("sampling", -32021)).toBeUndefined();
    expect(findByCode("host", -32000)).toBeUndefined();
    expect(findByCode("host", -32600)).toBe(HOST_ERRORS.FRAME_TOO_LARGE);
  });

  it("finds entries by errorCode, harness alias or another spec name", () => {
    expect(findByErrorCode("STORAGE_PRECONDITION_FAILED")).toBe(STORAGE_ERRORS.PRECONDITION_FAILED);
    expect(findByErrorCode("sampling_disabled")).toBe(SAMPLING_ERRORS.NOT_NEGOTIATED);
    expect(findByErrorCode("agent_run_too_large")).toBe(AGENT_ERRORS.RUN_TOO_LARGE);
    expect(findByErrorCode("MASK_UNSUPPORTED")).toBe(IMAGE_ERRORS.MASK_UNSUPPORTED);
    expect(findByErrorCode("IMAGE_PER_CALL_EXCEEDED")).toBe(IMAGE_ERRORS.MAX_IMAGES_EXCEEDED);
    expect(findByErrorCode("UPLOAD_MAX_BYTES_EXCEEDED")).toBe(UPLOAD_ERRORS.TOO_LARGE);
    expect(findByErrorCode("NOPE")).toBeUndefined();
  });

  it("builds the wire error with data.errorCode winning over caller data", () => {
    expect(
      toWireError(UPLOAD_ERRORS.TOO_LARGE, {
        message: "file over 8 MiB",
        data: { limit: 8, errorCode: "spoofed" },
      }),
    ).toEqual({
      code: -32204,
      message: "file over 8 MiB",
      data: { limit: 8, errorCode: "UPLOAD_TOO_LARGE" },
    });
    expect(toWireError(SAMPLING_ERRORS.NOT_NEGOTIATED)).toEqual({
      code: -32008,
      message: "not_negotiated",
      data: { errorCode: "SAMPLING_NOT_NEGOTIATED" },
    });
  });

  it("is frozen", () => {
    expect(Object.isFrozen(SAMPLING_ERRORS)).toBe(true);
    expect(Object.isFrozen(SAMPLING_ERRORS.NOT_NEGOTIATED)).toBe(true);
    expect(Object.isFrozen(ALL_ERRORS)).toBe(true);
  });
});
