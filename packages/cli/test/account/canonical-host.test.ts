import { describe, expect, it } from "vitest";
import { canonicalHost } from "../../src/account/canonical-host.js";
import { ExitError } from "../../src/cli/exit-error.js";

describe("canonicalHost", () => {
  it.each([
    ["https://Nexus.Example.com:443/api/", "https://nexus.example.com"],
    ["nexus.example.com", "https://nexus.example.com"],
    ["127.0.0.1:8000", "https://127.0.0.1:8000"],
    ["http://127.0.0.1:8080/", "http://127.0.0.1:8080"],
    ["HTTP://A.b:8080/x?y=1#z", "http://a.b:8080"],
    ["http://[::1]:80/", "http://[::1]"],
    ["  https://nexus.example.com  ", "https://nexus.example.com"],
  ])("%s → %s, as the published CLI keys it", (input, key) => {
    expect(canonicalHost(input)).toBe(key);
  });

  it("turns localhost:8000 into https://localhost:8000 instead of the published CLI's broken localhost://", () => {
    expect(canonicalHost("localhost:8000")).toBe("https://localhost:8000");
  });

  it.each(["", "ftp://files.example.com", "http://", "::::"])(
    "refuses %j with a usage error that shows a valid address",
    (input) => {
      let error: unknown;
      try {
        canonicalHost(input, "login");
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ExitError);
      expect((error as ExitError).exitCode).toBe(2);
      expect((error as ExitError).message).toContain("give one like https://nexus.example.com");
      expect((error as ExitError).message).toContain("(see: anna-app login --help)");
    },
  );
});
