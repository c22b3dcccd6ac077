import { describe, expect, it } from "vitest";
import { HOST_API_METHODS } from "../../src/app/host-api-methods.js";
import {
  CALL_ERROR_CODES,
  checkedByHandler,
  HOST_API_CONTRACT,
  hostMethod,
  HOST_API_ERROR_CODES,
  hostApiErrorsOf,
  isHostApiMethodKey,
  type HostApiMethodKey,
} from "../../src/host-api/index.js";
import { z } from "zod";

const KEYS = Object.keys(HOST_API_CONTRACT) as HostApiMethodKey[];

describe("the Host API contract", () => {
  it("has one entry per method of the zod-free method table, and no other", () => {
    const table = Object.entries(HOST_API_METHODS).flatMap(([ns, methods]) =>
      methods.map((method) => `${ns}.${method}`),
    );
    expect([...KEYS].sort()).toEqual(table.sort());
    expect(isHostApiMethodKey("storage.get")).toBe(true);
    expect(isHostApiMethodKey("storage.gett")).toBe(false);
    expect(isHostApiMethodKey("toString")).toBe(false);
  });

  it("names only catalog codes, and every method may answer the call-level ones", () => {
    for (const key of KEYS) {
      const codes = hostApiErrorsOf(key);
      expect(
        codes.filter((code) => !HOST_API_ERROR_CODES.includes(code)),
        key,
      ).toEqual([]);
      for (const code of CALL_ERROR_CODES) expect(codes, key).toContain(code);
      expect(new Set(codes).size, `${key}: no code twice`).toBe(codes.length);
    }
    expect(hostApiErrorsOf("tools.getJob")).toContain("job_not_found");
    expect(hostApiErrorsOf("llm.complete")).toContain("llm_disabled");
  });

  it("keeps unknown argument keys: newer SDKs may send fields an older host ignores", () => {
    const strict = KEYS.filter((key) => {
      const parsed = HOST_API_CONTRACT[key].args.safeParse({ __newer_field: 1 });
      return parsed.success
        ? (parsed.data as Record<string, unknown>)["__newer_field"] !== 1
        : parsed.error.issues.some((issue) => issue.code === "unrecognized_keys");
    });
    expect(strict).toEqual([]);
  });

  it("lets a handler-checked field through whatever it holds, so the handler answers for it", () => {
    const schema = z.looseObject({ key: checkedByHandler<string>() });
    for (const args of [{}, { key: 5 }, { key: "" }, { key: "notes/a" }]) {
      expect(schema.safeParse(args).success, JSON.stringify(args)).toBe(true);
    }
  });

  it("builds a method's schemas when they are first read, once, not at import", () => {
    let built = 0;
    const contract = hostMethod(
      () => (built++, z.looseObject({ a: z.string() })),
      () => z.looseObject({}),
    );
    expect(built).toBe(0);
    expect(contract.args).toBe(contract.args);
    expect(built).toBe(1);
    // Every method of the contract is built that way: a start that serves no call builds none.
    for (const key of KEYS) {
      for (const part of ["args", "result"] as const) {
        const descriptor = Object.getOwnPropertyDescriptor(HOST_API_CONTRACT[key], part);
        expect(typeof descriptor?.get, `${key}.${part}`).toBe("function");
      }
    }
  });
});
