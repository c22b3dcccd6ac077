// The fetcher's SSRF policy (R154, L11387): http/https only, ports 80/443/8080/8443, the host name
// resolved first and EVERY address checked against private, reserved and metadata ranges, the
// check repeated on each redirect hop. The checked address is the one the socket connects to
// (`pinnedLookup`), so a second DNS answer cannot swap in a private address (DNS rebinding).
import { lookup as dnsLookup } from "node:dns/promises";
import { BlockList, isIP, type LookupFunction } from "node:net";

export const WEB_ALLOWED_PORTS: readonly number[] = [80, 443, 8080, 8443];
export const WEB_ALLOWED_SCHEMES: readonly string[] = ["http:", "https:"];

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Host name → every address it resolves to. Injectable so tests can play any DNS answer. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const SYSTEM_RESOLVER: Resolver = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((a) => ({
    address: a.address,
    family: a.family === 6 ? 6 : 4,
  }));

export interface SsrfPolicyOptions {
  /**
   * Test and local-dev only: let loopback addresses (127.0.0.0/8, ::1) through, on any port, so
   * tests can fetch from a real server on 127.0.0.1. Every other range stays blocked.
   */
  allowLoopback?: boolean;
  resolver?: Resolver;
}

/** Why a URL may not be fetched. `reason` is a sentence naming what was refused. */
export class SsrfBlockedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SsrfBlockedError";
  }
}

/** A URL that passed the policy and the address its connection must use. */
export interface CheckedTarget {
  url: URL;
  address: ResolvedAddress;
}

const BLOCKED = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8], // "this" network
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local, cloud metadata (169.254.169.254)
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // TEST-NET-1
  ["192.88.99.0", 24], // 6to4 relay
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // TEST-NET-2
  ["203.0.113.0", 24], // TEST-NET-3
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
] as const) {
  BLOCKED.addSubnet(net, prefix, "ipv4");
}
for (const [net, prefix] of [
  ["::", 96], // unspecified, loopback and the deprecated IPv4-compatible ::a.b.c.d
  ["::ffff:0:0:0", 96], // IPv4-translated (SIIT, embeds IPv4)
  ["64:ff9b::", 96], // NAT64 (embeds IPv4)
  ["64:ff9b:1::", 48], // local NAT64
  ["100::", 64], // discard
  ["2001::", 23], // IETF protocol assignments (Teredo, ORCHID, …)
  ["2001:db8::", 32], // documentation
  ["2002::", 16], // 6to4 (embeds IPv4)
  ["fc00::", 7], // unique local (includes AWS metadata fd00:ec2::254)
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local (deprecated)
  ["ff00::", 8], // multicast
] as const) {
  BLOCKED.addSubnet(net, prefix, "ipv6");
}

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet("127.0.0.0", 8, "ipv4");
LOOPBACK.addAddress("::1", "ipv6");

/** Names refused before any DNS query: they are the metadata services' and the host's own. */
const BLOCKED_NAMES = [/^localhost$/i, /\.localhost$/i, /^metadata(\.google\.internal)?$/i];

/** `::ffff:10.0.0.1` is 10.0.0.1: check the embedded IPv4 address. */
function unmapped(address: ResolvedAddress): ResolvedAddress {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address.address);
  return mapped?.[1] === undefined ? address : { address: mapped[1], family: 4 };
}

export function isLoopbackAddress(address: ResolvedAddress): boolean {
  const a = unmapped(address);
  return LOOPBACK.check(a.address, a.family === 6 ? "ipv6" : "ipv4");
}

/** True for private, reserved, loopback, link-local, metadata and multicast addresses. */
export function isBlockedAddress(address: ResolvedAddress): boolean {
  const a = unmapped(address);
  return BLOCKED.check(a.address, a.family === 6 ? "ipv6" : "ipv4");
}

export class SsrfPolicy {
  private readonly allowLoopback: boolean;
  private readonly resolver: Resolver;

  constructor(options: SsrfPolicyOptions = {}) {
    this.allowLoopback = options.allowLoopback === true;
    this.resolver = options.resolver ?? SYSTEM_RESOLVER;
  }

  /**
   * Parses and checks one URL (the request's or a redirect's `Location`, resolved against
   * `base`). Throws `SsrfBlockedError` naming the rule; a URL that does not parse is a
   * `TypeError`.
   */
  async check(raw: string, base?: URL): Promise<CheckedTarget> {
    const url = new URL(raw, base);
    if (!WEB_ALLOWED_SCHEMES.includes(url.protocol)) {
      throw new SsrfBlockedError(`${url.protocol} URLs are not fetched; use http: or https:`);
    }
    if (url.username !== "" || url.password !== "") {
      throw new SsrfBlockedError("URLs with user:password@ credentials are not fetched");
    }
    const hostname = url.hostname.replace(/^\[|\]$/g, "");
    const literal = isIP(hostname);
    if (literal === 0 && BLOCKED_NAMES.some((re) => re.test(hostname))) {
      if (!this.allowLoopback) {
        throw new SsrfBlockedError(`${hostname} is a host-local name`);
      }
    }
    let addresses: ResolvedAddress[];
    if (literal !== 0) {
      addresses = [{ address: hostname, family: literal === 6 ? 6 : 4 }];
    } else {
      try {
        addresses = await this.resolver(hostname);
      } catch (error) {
        throw new SsrfBlockedError(
          `${hostname} does not resolve (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
        );
      }
      if (addresses.length === 0) throw new SsrfBlockedError(`${hostname} does not resolve`);
    }
    const loopbackOnly = this.allowLoopback && addresses.every(isLoopbackAddress);
    for (const address of addresses) {
      if (isBlockedAddress(address) && !(this.allowLoopback && isLoopbackAddress(address))) {
        throw new SsrfBlockedError(
          `${hostname} resolves to ${address.address}, a private, reserved or metadata address`,
        );
      }
    }
    const port = url.port === "" ? (url.protocol === "https:" ? 443 : 80) : Number(url.port);
    if (!loopbackOnly && !WEB_ALLOWED_PORTS.includes(port)) {
      throw new SsrfBlockedError(
        `port ${port} is not fetched; allowed ports are ${WEB_ALLOWED_PORTS.join(", ")}`,
      );
    }
    const first = addresses[0] as ResolvedAddress;
    return { url, address: first };
  }
}

/** A `lookup` for `http.request` that answers only with the address the policy checked. */
export function pinnedLookup(address: ResolvedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all === true) {
      (callback as (e: null, addresses: { address: string; family: number }[]) => void)(null, [
        { address: address.address, family: address.family },
      ]);
    } else {
      callback(null, address.address, address.family);
    }
  };
}
