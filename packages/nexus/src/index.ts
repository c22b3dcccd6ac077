export { createApp } from "./http/app.js";
export type { AppDeps, Env, Principal } from "./http/context.js";
export { openCopilot } from "./copilot/copilot-services.js";
export type { CopilotServices, OpenCopilotOptions } from "./copilot/copilot-services.js";
export { findDashboardDist } from "./http/dashboard-dist.js";
export { DASHBOARD_CSP } from "./http/page-headers.js";
export type { DashboardFiles } from "./routes/dashboard.js";
export { type Clock, type ManualClock, manualClock, systemClock } from "./core/clock.js";
export { DEFAULT_CONFIG, type NexusConfig, resolveConfig } from "./core/config.js";
export { ERROR_STATUS, type ErrorCode, NexusError } from "./core/errors.js";
export { jsonLogger, type Logger, type LogLevel, nullLogger, redact } from "./core/logger.js";
export {
  type DatabaseHandle,
  type DialectName,
  openDatabase,
  openPostgres,
  openSqlite,
} from "./db/connect.js";
export { MIGRATIONS, migrateToLatest, MigrationError } from "./db/migrate.js";
export type { Database } from "./db/schema.js";
export { memoryRateLimiter, type RateLimiter } from "./auth/rate-limit.js";
export { sqlRateLimiter } from "./auth/sql-rate-limit.js";
export {
  consoleMailSender,
  fileOutboxMailSender,
  type MailMessage,
  type MailSender,
} from "./mail/mail-sender.js";
export type { EmailVerificationStore } from "./stores/email-verification-store.js";
export { hashPassword, verifyPassword, type ScryptParams } from "./auth/password.js";
export { DEFAULT_LOGIN_SCOPES, PAT_PREFIX, type Scope, SCOPES } from "./auth/scopes.js";
export { memoryStores } from "./stores/memory-stores.js";
export { sqlStores } from "./stores/sql-stores.js";
export type {
  DevToken,
  DeveloperState,
  DeviceCode,
  DeviceStore,
  SessionStore,
  Stores,
  TokenStore,
  User,
  UserStore,
} from "./stores/types.js";
export { main } from "./main.js";
export {
  KEY_RETIRE_AFTER_MS,
  MAX_TOKEN_TTL_S,
  NEXUS_TOKEN_ISSUER,
  type RotateResult,
  SigningKeyring,
} from "./tokens/keyring.js";
export {
  KEK_ENV,
  KEK_FILE,
  type KeyEncryptionKey,
  KeyEncryptionError,
  kekFromBytes,
  loadKek,
} from "./tokens/key-encryption.js";
export { APP_SESSION_AUDIENCE, FAMILY_AUDIENCES } from "./tokens/audiences.js";
export {
  type CredentialVault,
  type ExecutaCredentialsView,
  MAX_CREDENTIAL_VALUE_BYTES,
  sqlCredentialVault,
} from "./credentials/credential-vault.js";
export { openPlatformCredentials } from "./credentials/open-platform-credentials.js";
export {
  OAUTH_PRESETS,
  type OAuthProvider,
  OAuthConfigError,
  OAuthRegistry,
  oauthProvidersFromEnv,
} from "./credentials/oauth-providers.js";
export type { ConnectedAccounts, ConnectedAccountView } from "./credentials/connected-accounts.js";
export type { PlatformCredentials } from "./routes/platform-credentials.js";
export { SESSION_CLAIM, type VerifiedNexusToken, verifyNexusToken } from "./tokens/verify-token.js";
export { requireToken } from "./http/token-auth.js";
export type { SigningKey, SigningKeyStore } from "./stores/signing-key-store.js";
export type { DevSession, DevSessionKind, DevSessionStore } from "./stores/dev-session-store.js";
export { mintPat } from "./routes/tokens.js";
export {
  createNexusRuntime,
  type NexusRuntime,
  type NexusRuntimeOptions,
} from "./runtime/nexus-runtime.js";
export { sqlAppCatalog, type SqlAppCatalog } from "./runtime/sql-app-catalog.js";
export {
  createNatsEventBus,
  EventBusConnectError,
  type EventBusHandle,
  type EventBusState,
  type EventBusStats,
  type NatsEventBusOptions,
} from "./bus/nats-event-bus.js";
export { EventBusConfigError, type NatsTarget, parseEventBusUrl } from "./bus/event-bus-url.js";
export {
  type AppVersionInput,
  type InstallInput,
  installApp,
  putAppVersion,
} from "./runtime/app-catalog-writes.js";
export { AppFolderError, readAppFolder } from "./runtime/load-app-folder.js";
export { keyringWindowTokens } from "./runtime/window-token-service.js";
export { sqlChatStore } from "./runtime/sql-chat-store.js";
export { sqlDeckStore } from "./runtime/sql-deck-store.js";
export { sqlToolJobStore } from "./runtime/sql-tool-job-store.js";
export { sqlWindowStore } from "./runtime/sql-window-store.js";
export {
  DRAFT_TTL_MS,
  type ExecutaHub,
  type ExecutaReferences,
  executaHub,
  NO_REFERENCES,
} from "./hub/executa-hub.js";
export {
  type Executa,
  type ExecutaStore,
  type ExecutaType,
  type ExecutaVersion,
  sqlExecutaStore,
  type Visibility,
} from "./hub/executa-store.js";
export { type AppStore, appStore } from "./store/app-store.js";
// APS storage on the SQL database, for embedding a Nexus with storage (tests of clients of its
// storage REST, like the CLI's real storage modes).
export { createSqlStorageService, type SqlStorageService } from "./storage/sql-kv-store.js";
export { createSqlFilesService } from "./storage/sql-files-store.js";
export { openBlobStore } from "./blobs/open-blob-store.js";
export type { BlobStore } from "./blobs/blob-store.js";
export {
  type ExecutaBinaries,
  executaBinaries,
  UPLOAD_TOKEN_PREFIX,
} from "./hub/binaries/binary-uploads.js";
export { type OidcVerifier, oidcVerifier } from "./hub/binaries/oidc.js";
// The app registry, for embedding a Nexus that publishes apps (tests of the CLI's apps commands).
export { appExecutaReferences, appRegistry } from "./apps/app-registry.js";
export { PRE_REVIEW_CHECKS } from "./apps/checks/index.js";
export {
  CHAT_ATTACHMENT_MAX_BYTES,
  ChatAttachments,
  type ChatAttachmentLimits,
} from "./chat/chat-attachments.js";
export {
  CHAT_STREAMS_MAX,
  CHAT_STREAMS_PER_USER_MAX,
  createChat,
  type ChatDeps,
} from "./chat/chat-deps.js";
export {
  CHAT_MAX_FRAMES_PER_TURN,
  CHAT_MAX_STEPS,
  ChatService,
  DEFAULT_SYSTEM_PROMPT,
  plainPrompt,
  type ChatServiceOptions,
  type PromptAssembler,
  type PromptInput,
  type ToolsFor,
} from "./chat/chat-service.js";
// The server's turn assembler (installed apps, #mentions, app view tools), for embedding a Nexus
// whose chat opens app windows (the dashboard's app-window browser test).
export { turnAssembler, type TurnAssemblerOptions } from "./chat/turn-assembly.js";
// `anna-nexus start` in-process with its hook, and the first admin `npm start` creates: the
// dashboard's journey test runs the whole server as npm start does, model and all.
export { runStart, type ListeningServer, type StartOptions } from "./cli/start.js";
export type { CliIo } from "./cli/io.js";
export { ensureFirstAdmin, type FirstAdmin } from "./cli/platform-accounts.js";
