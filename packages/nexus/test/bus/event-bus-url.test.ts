// The `--event-bus` value and the subjects it leads to: what is accepted, what is refused with
// a message naming the value and the expected form, and that credentials never reach a message.
import { describe, expect, it } from "vitest";
import { checkSubjectPrefix, userSubject } from "../../src/bus/event-bus-subject.js";
import { EventBusConfigError, parseEventBusUrl } from "../../src/bus/event-bus-url.js";

describe("parseEventBusUrl", () => {
  it("takes nats://host[:port], a comma-separated cluster and userinfo", () => {
    expect(parseEventBusUrl("nats://127.0.0.1:4333")).toEqual({
      servers: ["127.0.0.1:4333"],
      description: "nats://127.0.0.1:4333",
    });
    expect(parseEventBusUrl("nats://n1, nats://n2:5222/")).toMatchObject({
      servers: ["n1:4222", "n2:5222"],
      description: "nats://n1:4222,nats://n2:5222",
    });
    const withPass = parseEventBusUrl("nats://anna:s%40cret@nats.internal");
    expect(withPass.auth).toEqual({ user: "anna", pass: "s@cret" });
    expect(withPass.description).toBe("nats://nats.internal:4222");
    expect(parseEventBusUrl("nats://t0ken@nats").auth).toEqual({ token: "t0ken" });
  });

  it.each([
    ["http://nats:4222", "has scheme 'http:'; expected nats://host:port"],
    ["nats.internal:4222", "has scheme 'nats.internal:'"],
    ["nats://nats/anna", "must be just nats://host:port (no path or query)"],
    ["nats://nats?x=1", "must be just nats://host:port (no path or query)"],
    ["not a url", "is not a URL; expected nats://host:port"],
    [" , ", "event bus URL is empty; expected nats://host:port"],
  ])("refuses %j", (value, message) => {
    expect(() => parseEventBusUrl(value)).toThrow(EventBusConfigError);
    expect(() => parseEventBusUrl(value)).toThrow(message);
  });

  it("masks the credentials of a URL it refuses", () => {
    expect(() => parseEventBusUrl("tls://anna:hunter2@nats")).toThrow(
      "event bus URL 'tls://***@nats' has scheme 'tls:'",
    );
  });
});

describe("subjects", () => {
  it("puts each user on one token under the prefix, whatever the id holds", () => {
    for (const id of ["42", "a.b", "*", ">", "a b", ""]) {
      const subject = userSubject("anna.events", id);
      expect(subject).toMatch(/^anna\.events\.u[A-Za-z0-9_-]*$/);
    }
    expect(userSubject("p", "a.b")).not.toBe(userSubject("p", "a_b"));
  });

  it.each(["anna.events", "team-1.events_v2"])("takes the prefix %j", (prefix) => {
    expect(checkSubjectPrefix(prefix)).toBe(prefix);
  });

  it.each(["", "anna..events", "anna.*", "anna.>", "anna events", ".anna"])(
    "refuses the prefix %j, saying what a prefix is",
    (prefix) => {
      expect(() => checkSubjectPrefix(prefix)).toThrow(
        "expected dot-separated tokens of letters, digits, '-' and '_'",
      );
    },
  );
});
