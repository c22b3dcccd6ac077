// The window's formatting, pure functions: no harness needed.
import { describe, expect, it } from "vitest";
import {
  clock,
  doneTitle,
  logLine,
  minutesLeft,
  runningTitle,
  TITLE_MAX_CHARS,
  utcDay,
  when,
} from "../../bundle/format.js";

describe("format", () => {
  it("shows the clock as mm:ss, rounding up and never below zero", () => {
    expect(clock(1500)).toBe("25:00");
    expect(clock(60.2)).toBe("01:01");
    expect(clock(-3)).toBe("00:00");
  });

  it("says 1 min left until the last second", () => {
    expect(minutesLeft(1)).toBe(1);
    expect(minutesLeft(60)).toBe(1);
    expect(minutesLeft(61)).toBe(2);
  });

  it("keeps frame titles within set_title's 120 characters", () => {
    expect(runningTitle("Write", 1500)).toBe("▶ 25 min left · Write");
    const long = runningTitle("x".repeat(200), 60);
    expect(long).toHaveLength(TITLE_MAX_CHARS);
    expect(long.endsWith("…")).toBe(true);
    expect(doneTitle("2 sessions")).toBe("✓ 2 sessions");
  });

  it("writes a log line for finished and stopped sessions", () => {
    const base = { task: "Read", minutes: 25, started_at: "2026-11-29T14:05:00Z" };
    expect(logLine({ ...base, completed: true, focused_seconds: 1500 })).toBe("Read — 25 min");
    expect(logLine({ ...base, completed: false, focused_seconds: 605 })).toBe(
      "Read — 10 min of 25 min",
    );
    expect(logLine({ ...base, completed: false, focused_seconds: 42 })).toBe(
      "Read — 42 s of 25 min",
    );
    expect(when(base.started_at)).toBe("Nov 29, 14:05");
    expect(utcDay(new Date(base.started_at))).toBe("2026-11-29");
  });
});
