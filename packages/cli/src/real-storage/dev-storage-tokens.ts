// The `storage_token` of the dev tools' real storage, minted with the saved account's PAT by
// `POST /api/v1/anna-apps/dev/storage/mint` (real-world-cli.md D8): on the first storage call, not
// at start, and again 30 s before it expires; one token at a time per process, shared by
// concurrent calls. A 404 naming the app slug means the server does not know the dev app yet: the
// executa is registered (D3) and the mint retried once. Failures reach the plugin as storage
// errors: a server without the endpoint is -32021 (not granted), anything else -32029 (upstream).
import type { StorageScope } from "@anna-ai/app-schema";
import { STORAGE_ERRORS } from "@anna-ai/app-schema/errors";
import { catalogError } from "@anna-ai/executa-host";
import type { NexusClient } from "../account/nexus-client.js";
import { NexusRequestError } from "../account/nexus-error.js";
import type { StorageTokenSource } from "./storage-rest.js";

const DEV = "/api/v1/anna-apps/dev";
export const STORAGE_MINT_PATH = `${DEV}/storage/mint`;
export const EXECUTA_REGISTER_PATH = `${DEV}/executas/register`;
/** What the published CLI asks for; the server caps it there too. */
export const STORAGE_TOKEN_TTL_S = 600;
/** A token this close to its expiry is renewed first (the published CLI's margin). */
export const RENEW_BEFORE_MS = 30_000;

export interface DevStorageTokenOptions {
  /** Carries the saved PAT (as Bearer, which the dev endpoints accept besides `pat`). */
  client: NexusClient;
  appSlug: string;
  /** `executa dev`: the plugin's tool id (its `tool` scope); absent for `anna-app dev`. */
  toolId?: string;
  allowedScopes?: readonly StorageScope[];
  /** `anna-app dev` sends 200 (the host cap on storage + files calls per token). */
  maxCalls?: number;
  /** Ours, not the published CLI's: a lower per-user byte quota for this token's calls. */
  quotaBytes?: number;
  now?: () => number;
  /** Each minted token, so transcripts and traces can hide it. */
  onToken?: (token: string) => void;
}

export interface DevStorageTokens extends StorageTokenSource {
  /** How many tokens were minted (tests, the banner). */
  readonly minted: number;
}

interface Minted {
  token: string;
  expiresAt: number;
}

export function devStorageTokens(options: DevStorageTokenOptions): DevStorageTokens {
  const now = options.now ?? Date.now;
  let current: Minted | undefined;
  let pending: Promise<Minted> | undefined;
  let minted = 0;

  const body = () => ({
    app_slug: options.appSlug,
    ...(options.toolId === undefined ? {} : { executa_tool_id: options.toolId }),
    ...(options.allowedScopes === undefined ? {} : { allowed_scopes: options.allowedScopes }),
    ttl_seconds: STORAGE_TOKEN_TTL_S,
    ...(options.maxCalls === undefined ? {} : { max_calls: options.maxCalls }),
    ...(options.quotaBytes === undefined ? {} : { quota_bytes: options.quotaBytes }),
  });

  async function postMint() {
    return options.client.post<{ storage_token?: unknown; expires_in?: unknown }>(
      STORAGE_MINT_PATH,
      { body: body(), allowStatuses: [404], what: `POST ${STORAGE_MINT_PATH}` },
    );
  }

  async function mint(): Promise<Minted> {
    let res = await postMint();
    if (
      res.status === 404 &&
      options.toolId !== undefined &&
      namesSlug(res.body, options.appSlug)
    ) {
      await options.client.post(EXECUTA_REGISTER_PATH, {
        body: { tool_id: options.toolId, slug: options.appSlug },
        what: `POST ${EXECUTA_REGISTER_PATH}`,
      });
      res = await postMint();
    }
    if (res.status === 404) {
      throw catalogError(
        STORAGE_ERRORS.NOT_GRANTED,
        `${options.client.host} does not expose POST ${STORAGE_MINT_PATH}; real storage needs a Nexus that mints storage tokens (use --storage memory meanwhile)`,
      );
    }
    const token = res.body.storage_token;
    if (typeof token !== "string" || token === "") {
      throw new NexusRequestError(1, `POST ${STORAGE_MINT_PATH} answered without a storage_token`);
    }
    const ttl = typeof res.body.expires_in === "number" ? res.body.expires_in : STORAGE_TOKEN_TTL_S;
    minted += 1;
    options.onToken?.(token);
    return { token, expiresAt: now() + ttl * 1000 };
  }

  async function fresh(): Promise<Minted> {
    try {
      return await mint();
    } catch (error) {
      if (error instanceof NexusRequestError) {
        throw catalogError(
          STORAGE_ERRORS.UPSTREAM_ERROR,
          `cannot get a storage token: ${error.message}`,
          {},
          { cause: error },
        );
      }
      throw error;
    }
  }

  return {
    get minted() {
      return minted;
    },
    async token() {
      if (current !== undefined && now() < current.expiresAt - RENEW_BEFORE_MS) {
        return current.token;
      }
      pending ??= fresh().finally(() => (pending = undefined));
      current = await pending;
      return current.token;
    },
    invalidate() {
      current = undefined;
    },
  };
}

/** The published CLI's test for "this app slug is unknown": the text says not found and names it. */
function namesSlug(body: unknown, slug: string): boolean {
  const text = typeof body === "string" ? body : JSON.stringify(body ?? "");
  return /not found/i.test(text) && text.includes(slug);
}
