import { describe, expect, it } from "vitest";
import { CallLog, type CallRecord } from "../../src/test-kit/call-log.js";

function entry(key: string, t: number): CallRecord {
  const [ns = "", method = ""] = key.split(/\.(.*)/s);
  return { key, ns, method, args: {}, outcome: "ok", t };
}

describe("CallLog", () => {
  it("byNs matches a whole namespace or one ns.method, never a name that merely starts alike", () => {
    const log = new CallLog();
    log.record(entry("storage.get", 1));
    log.record(entry("storage.set", 2));
    log.record(entry("tools.invoke", 3));
    log.record(entry("tools.invokeAsync", 4));
    log.record(entry("agent.session.create", 5));

    expect(log.byNs("storage").map((c) => c.t)).toEqual([1, 2]);
    expect(log.byNs("tools.invoke").map((c) => c.t)).toEqual([3]);
    expect(log.byNs("tools").map((c) => c.t)).toEqual([3, 4]);
    expect(log.byNs("agent.session").map((c) => c.t)).toEqual([5]);
    expect(log.byNs("stor")).toEqual([]);
  });

  it("last, lastOf and clear", () => {
    const log = new CallLog();
    expect(log.last()).toBeUndefined();
    log.record(entry("storage.set", 1));
    log.record(entry("window.set_title", 2));
    log.record(entry("storage.get", 3));
    expect(log.last()?.key).toBe("storage.get");
    expect(log.lastOf("window")?.t).toBe(2);
    expect(log.lastOf("storage.set")?.t).toBe(1);
    expect(log.lastOf("chat")).toBeUndefined();
    const snapshot = log.all();
    log.clear();
    expect(log.all()).toEqual([]);
    expect(snapshot).toHaveLength(3);
  });
});
