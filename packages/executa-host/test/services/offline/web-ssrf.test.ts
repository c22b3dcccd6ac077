import { describe, expect, it } from "vitest";
import {
  isBlockedAddress,
  SsrfBlockedError,
  SsrfPolicy,
  type Resolver,
} from "../../../src/services/offline/web-ssrf.js";

const resolverFor =
  (answers: Record<string, string[]>): Resolver =>
  async (hostname) => {
    const found = answers[hostname];
    if (found === undefined) throw Object.assign(new Error("not found"), { code: "ENOTFOUND" });
    return found.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };

describe("SSRF address ranges", () => {
  it.each([
    "10.1.2.3",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "127.0.0.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "224.0.0.1",
    "255.255.255.255",
  ])("blocks the IPv4 address %s", (address) => {
    expect(isBlockedAddress({ address, family: 4 })).toBe(true);
  });

  it.each([
    "::1",
    "fe80::1",
    "fd00:ec2::254",
    "fc00::1",
    "::ffff:10.0.0.1",
    "::ffff:127.0.0.1",
    "::ffff:a9fe:a9fe", // 169.254.169.254, as the URL parser writes [::ffff:169.254.169.254]
    "::7f00:1", // IPv4-compatible ::127.0.0.1
    "::ffff:0:a00:1", // IPv4-translated ::ffff:0:10.0.0.1
    "ff02::1",
  ])("blocks the IPv6 address %s", (address) => {
    expect(isBlockedAddress({ address, family: 6 })).toBe(true);
  });

  it.each([
    ["93.184.216.34", 4],
    ["8.8.8.8", 4],
    ["172.32.0.1", 4],
    ["2606:2800:220:1:248:1893:25c8:1946", 6],
  ] as const)("lets the public address %s through", (address, family) => {
    expect(isBlockedAddress({ address, family })).toBe(false);
  });
});

describe("SsrfPolicy.check", () => {
  const policy = new SsrfPolicy({
    resolver: resolverFor({
      "example.com": ["93.184.216.34"],
      "internal.example": ["93.184.216.34", "10.0.0.5"],
      "rebind.example": ["169.254.169.254"],
    }),
  });

  it("resolves a public name and pins the checked address", async () => {
    const target = await policy.check("https://example.com/page");
    expect(target.address).toEqual({ address: "93.184.216.34", family: 4 });
    expect(target.url.href).toBe("https://example.com/page");
  });

  it.each([
    ["ftp://example.com/file", /ftp: URLs are not fetched/],
    ["file:///etc/passwd", /file: URLs are not fetched/],
    ["http://example.com:22/", /port 22 is not fetched/],
    ["http://user:pw@example.com/", /credentials/],
    ["http://10.0.0.1/", /10\.0\.0\.1, a private/],
    ["http://[::1]/", /::1, a private/],
    ["http://internal.example/", /resolves to 10\.0\.0\.5/],
    ["http://rebind.example/", /169\.254\.169\.254/],
    ["http://localhost/", /host-local name/],
    ["http://[::ffff:127.0.0.1]/", /a private/],
    ["http://0x7f.1/", /127\.0\.0\.1, a private/],
    ["http://2130706433/", /127\.0\.0\.1, a private/],
    ["http://nowhere.example/", /does not resolve \(ENOTFOUND\)/],
  ])("blocks %s", async (url, message) => {
    const error = await policy.check(url).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SsrfBlockedError);
    expect((error as Error).message).toMatch(message);
  });

  it("allows the listed ports 80, 443, 8080 and 8443", async () => {
    for (const port of [80, 443, 8080, 8443]) {
      await expect(policy.check(`http://example.com:${port}/`)).resolves.toBeDefined();
    }
  });

  it("lets loopback through on any port only with allowLoopback, and nothing else private", async () => {
    const loopback = new SsrfPolicy({ allowLoopback: true });
    await expect(loopback.check("http://127.0.0.1:54321/")).resolves.toMatchObject({
      address: { address: "127.0.0.1" },
    });
    await expect(new SsrfPolicy().check("http://127.0.0.1:54321/")).rejects.toThrow(
      SsrfBlockedError,
    );
    await expect(loopback.check("http://10.0.0.1/")).rejects.toThrow(/private/);
    await expect(loopback.check("http://169.254.169.254/latest/meta-data")).rejects.toThrow(
      /metadata/,
    );
  });

  it("resolves a redirect's relative Location against the current URL", async () => {
    const target = await policy.check("/next", new URL("https://example.com/a/b"));
    expect(target.url.href).toBe("https://example.com/next");
  });
});
