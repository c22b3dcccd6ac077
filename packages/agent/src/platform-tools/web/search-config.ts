// The search provider from the server's environment: off unless the operator names one. Only the
// server's main reads the environment; it passes it here. Mistakes name the variable to fix.
import { Secret } from "../../config/secret.js";
import {
  SEARCH_PROVIDER_KINDS,
  type SearchProvider,
  type SearchProviderKind,
  tavilySearchProvider,
} from "./search-provider.js";

export const WEB_SEARCH_ENV_VARS = [
  "ANNA_WEB_SEARCH_PROVIDER",
  "ANNA_WEB_SEARCH_API_KEY",
  "ANNA_WEB_SEARCH_BASE_URL",
  "ANNA_WEB_SEARCH_TIMEOUT_MS",
] as const;

export class SearchConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SearchConfigError";
  }
}

type Env = Readonly<Record<string, string | undefined>>;

function read(env: Env, name: (typeof WEB_SEARCH_ENV_VARS)[number]): string | undefined {
  const value = env[name]?.trim();
  return value === "" ? undefined : value;
}

/** The configured provider, or `undefined` when search is off (the default). */
export function searchProviderFromEnv(env: Env): SearchProvider | undefined {
  const kind = (read(env, "ANNA_WEB_SEARCH_PROVIDER") ?? "off").toLowerCase();
  if (!SEARCH_PROVIDER_KINDS.includes(kind as SearchProviderKind)) {
    throw new SearchConfigError(
      `ANNA_WEB_SEARCH_PROVIDER=${kind} is not a search provider; use one of ${SEARCH_PROVIDER_KINDS.join(", ")}`,
    );
  }
  if (kind === "off") return undefined;
  const apiKey = read(env, "ANNA_WEB_SEARCH_API_KEY");
  if (apiKey === undefined) {
    throw new SearchConfigError(
      "ANNA_WEB_SEARCH_PROVIDER=tavily needs ANNA_WEB_SEARCH_API_KEY (the provider's API key)",
    );
  }
  const baseUrl = read(env, "ANNA_WEB_SEARCH_BASE_URL");
  if (baseUrl !== undefined && !/^https?:\/\//.test(baseUrl)) {
    throw new SearchConfigError(
      `ANNA_WEB_SEARCH_BASE_URL=${baseUrl} is not an http(s) URL; e.g. https://api.tavily.com`,
    );
  }
  const timeout = read(env, "ANNA_WEB_SEARCH_TIMEOUT_MS");
  const timeoutMs = timeout === undefined ? undefined : Number(timeout);
  if (timeoutMs !== undefined && !(Number.isInteger(timeoutMs) && timeoutMs > 0)) {
    throw new SearchConfigError(
      `ANNA_WEB_SEARCH_TIMEOUT_MS=${timeout} is not a positive whole number of milliseconds`,
    );
  }
  return tavilySearchProvider({
    apiKey: new Secret(apiKey),
    ...(baseUrl === undefined ? {} : { baseUrl }),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  });
}
