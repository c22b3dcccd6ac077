// `anna-nexus start` flags for executa binaries: which OIDC issuers B2 trusts and the largest
// artifact B3 plans for.
import { DEFAULT_CONFIG, type NexusConfig } from "../core/config.js";
import type { Flags, FlagValues } from "./args.js";
import { usageError } from "./exit.js";

export const BINARY_FLAGS: Flags = {
  "oidc-issuer": {
    type: "string",
    value: "<url,…>",
    description: `OIDC issuers whose CI id-tokens may upload binaries for a trusted publisher, comma-separated (env ANNA_OIDC_ISSUERS; default ${DEFAULT_CONFIG.binaries.oidcIssuers.join(",")})`,
  },
  "binary-max-bytes": {
    type: "string",
    value: "<n>",
    description: `largest executa binary per platform, in bytes (env ANNA_BINARY_MAX_BYTES; default ${DEFAULT_CONFIG.binaries.maxArtifactBytes})`,
  },
};

export function binaryConfig(
  flags: FlagValues,
  env: NodeJS.ProcessEnv,
): Partial<NexusConfig["binaries"]> {
  const out: Partial<NexusConfig["binaries"]> = {};
  const issuers =
    (flags["oidc-issuer"] as string | undefined) ?? (env.ANNA_OIDC_ISSUERS || undefined);
  if (issuers !== undefined) {
    const list = issuers
      .split(",")
      .map((s) => s.trim().replace(/\/+$/, ""))
      .filter(Boolean);
    for (const u of list) {
      if (!/^https?:\/\/[^/]+(\/.*)?$/.test(u)) {
        throw usageError(`--oidc-issuer: '${u}' is not an http(s) URL`, "start");
      }
    }
    out.oidcIssuers = list;
  }
  const max =
    (flags["binary-max-bytes"] as string | undefined) ?? (env.ANNA_BINARY_MAX_BYTES || undefined);
  if (max !== undefined) {
    const n = Number(max);
    if (!Number.isSafeInteger(n) || n < 1) {
      throw usageError(
        `--binary-max-bytes must be a positive whole number (got '${max}')`,
        "start",
      );
    }
    out.maxArtifactBytes = n;
  }
  return out;
}
