// The one spelling of a Nexus host: the key of the credentials file and the base of every API
// URL, computed exactly as the published CLI does (real-world-cli.md §0.1) so that both CLIs find
// the same saved account: parse as a URL (else with `https://` in front), keep
// `<protocol>//<hostname>[:<port>]`, lowercase, no default port, no path, query or slash.
import { usageError } from "../cli/exit-error.js";

const WEB_PROTOCOLS = new Set(["http:", "https:"]);

function parseWeb(text: string): URL | undefined {
  try {
    const url = new URL(text);
    return WEB_PROTOCOLS.has(url.protocol) && url.hostname !== "" ? url : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `https://Nexus.Example.com:443/api/` → `https://nexus.example.com`; `127.0.0.1:8000` →
 * `https://127.0.0.1:8000`. Unlike the published CLI, `localhost:8000` (which it turns into the
 * unusable `localhost://`) becomes `https://localhost:8000`, and anything that is still not an
 * http(s) URL is a usage error instead of a broken key. Throws an ExitError (exit 2).
 */
export function canonicalHost(input: string, command?: string): string {
  const text = input.trim();
  // Only an address without a scheme gets `https://`: `ftp://x` must not become host "ftp".
  const url = parseWeb(text) ?? (text.includes("://") ? undefined : parseWeb(`https://${text}`));
  if (text === "" || url === undefined) {
    throw usageError(
      `'${input}' is not a Nexus address; give one like https://nexus.example.com or http://127.0.0.1:8080`,
      command,
    );
  }
  // URL already lowercases the hostname and drops the protocol's default port.
  return `${url.protocol}//${url.host}`;
}
