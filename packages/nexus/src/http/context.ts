// What every route handler can reach: the injected dependencies and the request's principal.
import type { Context } from "hono";
import type { Clock } from "../core/clock.js";
import type { NexusConfig } from "../core/config.js";
import type { Logger } from "../core/logger.js";
import type { RateLimiter } from "../auth/rate-limit.js";
import type { ScryptParams } from "../auth/password.js";
import type { BlobStore } from "../blobs/blob-store.js";
import type { NexusRuntime } from "../runtime/nexus-runtime.js";
import type { ExecutaBinaries } from "../hub/binaries/binary-uploads.js";
import type { ExecutaHub } from "../hub/executa-hub.js";
import type { AppRegistry } from "../apps/app-registry.js";
import type { AppStore } from "../store/app-store.js";
import type { ChatDeps } from "../chat/chat-deps.js";
import type { MailSender } from "../mail/mail-sender.js";
import type { DashboardFiles } from "../routes/dashboard.js";
import type { StorageServices } from "../routes/storage.js";
import type { CopilotServices } from "../copilot/copilot-services.js";
import type { ExecutaRuntime } from "../executas/executa-runtime.js";
import type { CredentialVault } from "../credentials/credential-vault.js";
import type { PlatformCredentials } from "../routes/platform-credentials.js";
import type { RequestMetrics } from "./request-log.js";
import type { DevToken, Stores, User } from "../stores/types.js";
import type { SigningKeyring } from "../tokens/keyring.js";

export interface AppDeps {
  stores: Stores;
  clock: Clock;
  logger: Logger;
  config: NexusConfig;
  /** Resolves when the database answers (readiness). */
  pingDatabase: () => Promise<void>;
  /**
   * Readiness checks beyond the database and blob store (`anna-nexus start` adds the schema and
   * the sandbox); each answers its state in a word, `ok` or another.
   */
  readiness?: ReadinessCheck[];
  /** Counts requests and latencies for /metrics (`anna-nexus start --metrics-port`). */
  metrics?: RequestMetrics;
  /** In memory unless given; `anna-nexus start` passes the SQL one on a shared database. */
  rateLimiter?: RateLimiter;
  /** Sends verification links; without it sign-up sends none and resend answers 503. */
  mail?: MailSender;
  /** APS storage at /api/v1/storage/* and the blob store behind its URLs (readiness too). */
  storage?: StorageServices & { blobs: BlobStore };
  /** scrypt cost for new hashes (tests lower it). */
  passwordParams?: ScryptParams;
  /**
   * Signs and verifies per-invoke tokens (H15). `anna-nexus start` always passes one; without it
   * the mint endpoints and the JWKS answer 503.
   */
  keyring?: SigningKeyring;
  /** The app runtime (windows, rpc, events) at /api/v1/anna-apps/runtime/*; absent, 404. */
  runtime?: NexusRuntime;
  /** The Executa Hub at /api/v1/executas/* (503 without it). */
  hub?: ExecutaHub;
  /** Executa binary uploads, trusted publishers and downloads (503 without it). */
  binaries?: ExecutaBinaries;
  /**
   * The app registry at /api/v1/developer/apps/* and /api/v1/super-admin/apps/* (503 without it).
   * With a blob store in its deps it also serves UI bundles at /anna-apps/* and the review pages.
   */
  apps?: AppRegistry;
  /** The App Store at /api/v1/store/*, /api/v1/me/apps and /me/executas (503 without it). */
  store?: AppStore;
  /**
   * The web dashboard at `/` and its client routes (routes/dashboard.ts); its `distDir`
   * unbuilt or unknown, `/` answers a page saying how to build it. Absent, `/` is not served.
   */
  dashboard?: DashboardFiles;
  /** Chat turns at /api/v1/chat/* (503 without it). */
  chat?: ChatDeps;
  /** The LLM gateway at /api/v1/copilot/* (503 without it). */
  copilot?: CopilotServices;
  /**
   * Installed executas run on this server: install, describe cache and the sandboxed pool. Chat
   * turns call users' plugins through it; absent, turns have no executa tools.
   */
  executas?: ExecutaRuntime;
  /**
   * The credential values users enter for their executas, sealed under the server's KEK, at
   * /api/v1/me/executas/{tool_id}/credentials (503 without it). The same vault feeds the pool.
   */
  credentials?: CredentialVault;
  /**
   * Accounts users connect at the operator's OAuth providers, at /api/v1/platform-credentials/*
   * (503 without it). The same accounts feed `credentials/*`, `credentials.*` and `$access_token`.
   */
  platformCredentials?: PlatformCredentials;
}

export interface ReadinessCheck {
  name: string;
  /** Its state in a word (`ok`, `pending`, `off`…); a throw or a timeout counts as down. */
  probe: () => Promise<string>;
  /** Whether a state other than `ok` makes the node not ready (false: reported only). */
  required: boolean;
  /** States that count as ready besides `ok` for a required check. */
  alsoReady?: readonly string[];
}

export type Principal =
  { via: "session"; user: User; sessionHash: string } | { via: "pat"; user: User; token: DevToken };

export interface Env {
  Variables: {
    principal: Principal | undefined;
    /** The origin this request addresses (public origin or scheme://Host). */
    ownOrigin: string;
    secure: boolean;
    clientIp: string;
    /** This request's id (X-Request-Id), in its log line and error body. */
    requestId: string;
  };
}

export type Ctx = Context<Env>;
