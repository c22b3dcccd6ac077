// The real storage of the dev tools, opened before the plugin or the app starts: the saved account
// (`selectAccount`: none → exit 2 with the login command), the dev app slug, and the storage and
// files services that forward to the server with a storage token minted on demand. Problems a
// developer can fix before the first call are reported at start, in one line: not logged in, the
// saved token revoked or expired, the server unreachable.
import type { StorageScope } from "@anna-ai/app-schema";
import type { FilesService, StorageService } from "@anna-ai/executa-host";
import { selectAccount } from "../account/select-account.js";
import { NexusRequestError } from "../account/nexus-error.js";
import { devStorageTokens, EXECUTA_REGISTER_PATH } from "./dev-storage-tokens.js";
import { createRestStorage } from "./storage-rest.js";

export interface RealStorage {
  storage: StorageService;
  files: FilesService;
  host: string;
  appSlug: string;
  /** For the banner: `real (http://127.0.0.1:8080, app executa-notes)`. */
  label: string;
  /** The PAT: transcripts, traces and logs must hide it (storage tokens are JWTs, hidden anyway). */
  secretValues: string[];
  /** Gets the first token now (anna-app dev: one token per process, checked at start). */
  warmUp(): Promise<void>;
}

export interface OpenRealStorageOptions {
  env: NodeJS.ProcessEnv;
  /** `executa dev` or `dev`, for messages. */
  command: string;
  /** The saved account's host (`--storage-account`, …); default the current account. */
  account: string | undefined;
  /** `--app-slug` (executa dev) or the app's slug (anna-app dev). */
  appSlug: string | undefined;
  /** `executa dev`: the plugin's tool id; its dev app is registered when no slug is given. */
  toolId?: string;
  allowedScopes?: readonly StorageScope[];
  maxCalls?: number;
  /** One line for the developer (stderr). */
  warn(line: string): void;
  fetch?: typeof fetch;
}

/** The published CLI's slug when registration fails: `executa-<tool_id>` (or the id as it is). */
export function fallbackDevAppSlug(toolId: string): string {
  return toolId.startsWith("executa-") ? toolId : `executa-${toolId}`;
}

export async function openRealStorage(options: OpenRealStorageOptions): Promise<RealStorage> {
  const selected = await selectAccount(options.env, {
    command: options.command,
    account: options.account,
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  });
  const { client, host } = selected;
  const pat = selected.saved?.pat ?? options.env.ANNA_APP_PAT;
  const appSlug =
    options.appSlug ??
    (options.toolId === undefined
      ? undefined
      : await registerExecuta(client, options.toolId, options.warn));
  if (appSlug === undefined) throw new Error("openRealStorage needs an app slug or a tool id");
  const tokens = devStorageTokens({
    client,
    appSlug,
    ...(options.toolId === undefined ? {} : { toolId: options.toolId }),
    ...(options.allowedScopes === undefined ? {} : { allowedScopes: options.allowedScopes }),
    ...(options.maxCalls === undefined ? {} : { maxCalls: options.maxCalls }),
  });
  const rest = createRestStorage({
    host,
    tokens,
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  });
  return {
    ...rest,
    host,
    appSlug,
    label: `real (${host}, app ${appSlug})`,
    secretValues: pat === undefined ? [] : [pat],
    warmUp: async () => {
      await tokens.token();
    },
  };
}

/**
 * D3 without a slug: the server names the executa's dev app. A server that cannot (an older one:
 * 404) gets the published CLI's fallback slug; one that cannot be reached, or refuses the saved
 * token, stops the start with its one-line reason.
 */
export async function registerExecuta(
  client: Awaited<ReturnType<typeof selectAccount>>["client"],
  toolId: string,
  warn: (line: string) => void,
): Promise<string> {
  try {
    const res = await client.post<{ slug?: unknown }>(EXECUTA_REGISTER_PATH, {
      body: { tool_id: toolId },
      allowStatuses: [404],
      what: "registering the executa's dev app",
    });
    if (res.status === 200 && typeof res.body.slug === "string") return res.body.slug;
    warn(
      `${client.host} does not register dev executas (POST ${EXECUTA_REGISTER_PATH} answered ${res.status}); using app slug ${fallbackDevAppSlug(toolId)}`,
    );
  } catch (error) {
    const status = error instanceof NexusRequestError ? error.status : undefined;
    if (status === undefined || status === 401 || status === 403) throw error;
    warn(`${(error as Error).message}; using app slug ${fallbackDevAppSlug(toolId)}`);
  }
  return fallbackDevAppSlug(toolId);
}
