export { createApp } from "./http/app.js";
export type { AppDeps, Env, Principal } from "./http/context.js";
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
