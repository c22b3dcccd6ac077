import { describe, expect, it } from "vitest";
import { memoryLogger, REDACTED, redact } from "../src/core/logger.js";

describe("logger", () => {
  it("redacts secret-looking keys at any depth and keeps the rest", () => {
    expect(
      redact({
        pat: "anna_pat_x",
        password: "p",
        device_code: "d",
        user_code: "u",
        path: "/a",
        token_id: 3,
        nested: { authorization: "Bearer x", ok: 1 },
      }),
    ).toEqual({
      pat: REDACTED,
      password: REDACTED,
      device_code: REDACTED,
      user_code: REDACTED,
      path: "/a",
      token_id: 3,
      nested: { authorization: REDACTED, ok: 1 },
    });
  });

  it("writes one JSON line per record", () => {
    const l = memoryLogger();
    l.log("info", "hello", { session: "s3cret" });
    expect(l.lines).toHaveLength(1);
    expect(JSON.parse(l.lines[0]!)).toMatchObject({
      level: "info",
      msg: "hello",
      session: REDACTED,
    });
  });
});
