import { describe, expect, it } from "vitest";
import { StderrLogger } from "../src/index.js";

function capture(options: ConstructorParameters<typeof StderrLogger>[0] = {}) {
  const lines: Record<string, unknown>[] = [];
  const logger = new StderrLogger({
    ...options,
    write: (line) => void lines.push(JSON.parse(line) as Record<string, unknown>),
  });
  return { logger, lines };
}

describe("StderrLogger", () => {
  it("writes one JSON object per line with level, message and fields", () => {
    const { logger, lines } = capture({ fields: { plugin: "p" } });
    logger.info("hello", { n: 1 });
    expect(lines).toEqual([
      { ts: expect.any(String) as unknown, level: "info", msg: "hello", plugin: "p", n: 1 },
    ]);
  });

  it("drops lines below the level", () => {
    const { logger, lines } = capture({ level: "warn" });
    logger.debug("d");
    logger.info("i");
    logger.warn("w");
    logger.error("e");
    expect(lines.map((l) => l.level)).toEqual(["warn", "error"]);
  });

  it("hides secret-looking keys and credential values, and keeps errors readable", () => {
    const { logger, lines } = capture();
    const child = logger.child({ tool: "t" }, ["sk-live-123456", "abc"]);
    child.warn("token sk-live-123456 rejected", {
      sampling_token: "eyJ.x.y",
      credentials: { KEY: "v" },
      nested: { note: "uses sk-live-123456", word: "abc" },
      error: new Error("boom sk-live-123456"),
    });
    const line = lines[0] as Record<string, unknown>;
    expect(JSON.stringify(line)).not.toContain("sk-live-123456");
    expect(line).toMatchObject({
      tool: "t",
      msg: "token [REDACTED] rejected",
      sampling_token: "[REDACTED]",
      credentials: { KEY: "[REDACTED]" },
      nested: { note: "uses [REDACTED]", word: "abc" },
      error: { name: "Error", message: "boom [REDACTED]" },
    });
  });
});
