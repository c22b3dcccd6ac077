import { describe, expect, it } from "vitest";
import { bufferedJsonLogger, memoryLogger, REDACTED, redact } from "../src/core/logger.js";

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

  it("buffers info lines into one write, flushes at once on warn, on flush and after 25 ms", async () => {
    const writes: string[] = [];
    const log = bufferedJsonLogger((chunk) => writes.push(chunk), { now: () => 0 });
    log.log("info", "request", { path: "/a" });
    log.log("info", "request", { path: "/b", pat: "anna_pat_secret" });
    expect(writes).toEqual([]);
    log.log("warn", "slow", {});
    expect(writes).toHaveLength(1);
    const lines = writes[0]!
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as { msg: string });
    expect(lines.map((l) => l.msg)).toEqual(["request", "request", "slow"]);
    expect(writes[0]).not.toContain("anna_pat_secret");

    log.log("info", "request", { path: "/c" });
    log.flush();
    expect(writes).toHaveLength(2);
    log.flush();
    expect(writes).toHaveLength(2);

    log.log("info", "request", { path: "/d" });
    await new Promise((r) => setTimeout(r, 60));
    expect(writes).toHaveLength(3);
    expect(writes[2]).toContain('"path":"/d"');
  });
});
