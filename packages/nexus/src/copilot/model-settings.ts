// The model configuration an admin edits at run time, and how it meets the other two sources:
// the config file (`--config`), the database (this page) and the environment, merged setting by
// setting with env > database > file. The operator's environment wins so a deployment can pin a
// setting (a key kept in a secret manager, say); the page shows which settings are pinned and
// refuses to change them. A change is checked (it must resolve with the other layers), stored
// with provider keys sealed under the KEK, audited (who, when, which settings), and switched to:
// the calls that start after it use the new configuration, with no restart.
import {
  LlmConfigError,
  envSettingName,
  llmSettingSources,
  mergeLlmConfigInputs,
  parseLlmConfig,
  parseLlmConfigInput,
  type LlmConfig,
  type LlmConfigInput,
  type LlmConfigLayer,
  type LlmConfigSource,
} from "@anna-ai/agent";
import type { Kysely } from "kysely";
import { NexusError } from "../core/errors.js";
import type { Database } from "../db/schema.js";
import type { KeyEncryptionKey } from "../tokens/key-encryption.js";

const SETTINGS_NAME = "llm";
/** The audit entries the page shows, newest first. */
export const MODEL_SETTINGS_AUDIT_SHOWN = 20;
const SECTIONS = ["sampling", "embeddings", "images"] as const;

type Loose = Record<string, unknown>;

export interface ModelSettingsOptions {
  db: Kysely<Database>;
  /** Seals provider keys at rest; without it, keys cannot be stored from the page. */
  kek: KeyEncryptionKey | undefined;
  /** The config file's `llm`, when the server started with one. */
  file?: { path: string; llm: LlmConfigInput };
  /** The environment's settings (`llmConfigInputFromEnv`). */
  env: LlmConfigInput;
  clock: () => number;
}

export interface ModelSettingsAuditEntry {
  changedBy: string;
  changedAt: number;
  changes: readonly ModelSettingChange[];
}

export interface ModelSettingChange {
  setting: string;
  /** `set`, `cleared` or `replaced` for a key; the old and new value for anything else. */
  change: string;
}

export interface ModelSettingsState {
  /** The resolved configuration every call uses now. */
  config: LlmConfig;
  /** The admin's layer as stored, keys decrypted (never leave the server in it). */
  database: LlmConfigInput;
  version: number;
  updatedAt: number | null;
  sources: Record<string, LlmConfigSource>;
  /** Settings the environment sets, with the variable that sets each. */
  pinned: Record<string, string>;
  filePath: string | undefined;
}

export class ModelSettings {
  readonly #options: ModelSettingsOptions;
  #database: LlmConfigInput = {};
  #version = 0;
  #updatedAt: number | null = null;

  constructor(options: ModelSettingsOptions) {
    this.#options = options;
  }

  /** Reads the stored layer; the configuration the server starts with. */
  async load(): Promise<LlmConfig> {
    const row = await this.#options.db
      .selectFrom("server_settings")
      .selectAll()
      .where("name", "=", SETTINGS_NAME)
      .executeTakeFirst();
    if (row !== undefined) {
      this.#database = this.#unseal(JSON.parse(row.value) as Loose);
      this.#version = row.version;
      this.#updatedAt = row.updated_at;
    }
    try {
      return this.resolve(this.#database);
    } catch (error) {
      if (error instanceof LlmConfigError) {
        throw new Error(
          `the model settings saved from the admin page do not fit this server's config file and environment: ${error.message}; change the environment, or the settings after starting with ANNA_LLM_PROVIDER=offline`,
          { cause: error },
        );
      }
      throw error;
    }
  }

  state(config: LlmConfig): ModelSettingsState {
    const layers = this.#layers(this.#database);
    return {
      config,
      database: this.#database,
      version: this.#version,
      updatedAt: this.#updatedAt,
      sources: llmSettingSources(layers),
      pinned: this.pinned(),
      filePath: this.#options.file?.path,
    };
  }

  pinned(): Record<string, string> {
    const sources = llmSettingSources([{ source: "env", input: this.#options.env }]);
    return Object.fromEntries(
      Object.keys(sources).map((path) => [path, envSettingName(path.split("."))]),
    );
  }

  /**
   * The configuration `candidate` (the admin's whole layer) would give with the file and env.
   * Throws LlmConfigError listing every problem by setting.
   */
  resolve(candidate: LlmConfigInput): LlmConfig {
    const layers = this.#layers(candidate);
    return parseLlmConfig(mergeLlmConfigInputs(layers));
  }

  /** `resolve`, with problems as NexusError `validation_failed` listing them by setting. */
  check(candidate: LlmConfigInput): LlmConfig {
    try {
      return this.resolve(candidate);
    } catch (error) {
      if (error instanceof LlmConfigError) throw validationError(error);
      throw error;
    }
  }

  /**
   * The admin's new layer from a request: shape-checked, env-pinned settings refused, and a key
   * left out kept from the stored layer only while the section's provider stays the same (a key
   * never follows a switch to another vendor).
   */
  candidate(body: unknown): LlmConfigInput {
    let input: LlmConfigInput;
    try {
      input = parseLlmConfigInput(stripNullKeys(body), (p) => p.join(".") || "settings");
    } catch (error) {
      if (error instanceof LlmConfigError) throw validationError(error);
      throw error;
    }
    const pinned = this.pinned();
    const clashes = Object.keys(llmSettingSources([{ source: "database", input }])).filter(
      (path) => path in pinned,
    );
    if (clashes.length > 0) {
      throw new NexusError(
        "setting_pinned",
        `${clashes.map((p) => `${p} is set by ${pinned[p] ?? "the environment"}`).join("; ")}: the environment wins over this page, so leave these out (or unset the variables and restart)`,
        { details: { pinned: Object.fromEntries(clashes.map((p) => [p, pinned[p]])) } },
      );
    }
    return keepKeys(input, this.#database, cleared(body));
  }

  /** Stores `candidate` as the admin's layer, audited; the caller switches the gateway. */
  async save(
    candidate: LlmConfigInput,
    by: { userId: number; email: string },
    expectedVersion: number | undefined,
  ): Promise<LlmConfig> {
    const config = this.check(candidate);
    if (expectedVersion !== undefined && expectedVersion !== this.#version) {
      throw new NexusError(
        "stale_revision",
        `the model settings changed since you read them (version ${this.#version}, you sent ${expectedVersion}); reload and apply your change again`,
        { details: { version: this.#version } },
      );
    }
    const changes = diff(this.#database, candidate);
    const now = this.#options.clock();
    const sealed = JSON.stringify(this.#seal(candidate));
    const next = this.#version + 1;
    await this.#options.db.transaction().execute(async (trx) => {
      // The version check is repeated in the database: another server on the same PostgreSQL
      // may have saved meanwhile.
      if (this.#version === 0) {
        await trx
          .insertInto("server_settings")
          .values({
            name: SETTINGS_NAME,
            value: sealed,
            version: next,
            updated_at: now,
            updated_by: by.userId,
          })
          .onConflict((oc) => oc.column("name").doNothing())
          .execute();
      } else {
        await trx
          .updateTable("server_settings")
          .set({ value: sealed, version: next, updated_at: now, updated_by: by.userId })
          .where("name", "=", SETTINGS_NAME)
          .where("version", "=", this.#version)
          .execute();
      }
      const stored = await trx
        .selectFrom("server_settings")
        .select(["version", "updated_at"])
        .where("name", "=", SETTINGS_NAME)
        .executeTakeFirst();
      if (stored?.version !== next || stored.updated_at !== now) {
        throw new NexusError(
          "stale_revision",
          "another admin saved the model settings at the same time; reload and apply your change again",
        );
      }
      await trx
        .insertInto("server_settings_audit")
        .values({
          name: SETTINGS_NAME,
          changed_by: by.userId,
          changed_by_email: by.email,
          changed_at: now,
          changes: JSON.stringify(changes),
        })
        .execute();
    });
    this.#database = candidate;
    this.#version = next;
    this.#updatedAt = now;
    return config;
  }

  async audit(limit = MODEL_SETTINGS_AUDIT_SHOWN): Promise<ModelSettingsAuditEntry[]> {
    const rows = await this.#options.db
      .selectFrom("server_settings_audit")
      .select(["changed_by_email", "changed_at", "changes"])
      .where("name", "=", SETTINGS_NAME)
      .orderBy("id", "desc")
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      changedBy: r.changed_by_email,
      changedAt: r.changed_at,
      changes: JSON.parse(r.changes) as ModelSettingChange[],
    }));
  }

  #layers(database: LlmConfigInput): LlmConfigLayer[] {
    return [
      ...(this.#options.file ? [{ source: "file" as const, input: this.#options.file.llm }] : []),
      { source: "database", input: database },
      { source: "env", input: this.#options.env },
    ];
  }

  #seal(input: LlmConfigInput): Loose {
    return mapKeys(input, (key, path) => {
      const kek = this.#options.kek;
      if (kek === undefined) {
        throw new NexusError(
          "unavailable",
          "this server has no key-encryption key to seal provider keys with; start it with ANNA_TOKEN_KEK or a data folder",
        );
      }
      return { sealed: kek.seal(key as string, `settings:${path}`) };
    });
  }

  #unseal(stored: Loose): LlmConfigInput {
    return mapKeys(stored, (value, path) => {
      const sealed = (value as { sealed?: unknown }).sealed;
      if (typeof sealed !== "string" || this.#options.kek === undefined) {
        throw new Error(`the stored model setting ${path} is not a sealed key`);
      }
      return this.#options.kek.open(sealed, `settings:${path}`);
    }) as LlmConfigInput;
  }
}

/** `apiKey` values (top level and per section) replaced by `f(value, path)`. */
function mapKeys(input: Loose, f: (value: unknown, path: string) => unknown): Loose {
  const out: Loose = { ...input };
  if (out["apiKey"] !== undefined) out["apiKey"] = f(out["apiKey"], "apiKey");
  for (const section of SECTIONS) {
    const s = out[section] as Loose | undefined;
    if (s?.["apiKey"] !== undefined) {
      out[section] = { ...s, apiKey: f(s["apiKey"], `${section}.apiKey`) };
    }
  }
  return out;
}

/** `apiKey: null` means "remove the key": dropped before the shape check, noted by `cleared`. */
function stripNullKeys(body: unknown): unknown {
  if (body === null || typeof body !== "object") return body;
  return mapNulls(body as Loose);
}

function mapNulls(input: Loose): Loose {
  const out: Loose = { ...input };
  if (out["apiKey"] === null) delete out["apiKey"];
  for (const section of SECTIONS) {
    const s = out[section];
    if (s !== null && typeof s === "object") out[section] = mapNulls(s as Loose);
  }
  return out;
}

function cleared(body: unknown): Set<string> {
  const out = new Set<string>();
  if (body === null || typeof body !== "object") return out;
  const b = body as Loose;
  if (b["apiKey"] === null) out.add("apiKey");
  for (const section of SECTIONS) {
    const s = b[section] as Loose | undefined;
    if (s !== null && typeof s === "object" && s["apiKey"] === null) out.add(`${section}.apiKey`);
  }
  return out;
}

/** Stored keys the request left out, kept where the provider is unchanged and not cleared. */
function keepKeys(
  next: LlmConfigInput,
  stored: LlmConfigInput,
  clear: Set<string>,
): LlmConfigInput {
  const out: Loose = { ...(next as Loose) };
  const prev = stored as Loose;
  if (out["apiKey"] === undefined && !clear.has("apiKey") && prev["apiKey"] !== undefined) {
    if (out["provider"] === prev["provider"]) out["apiKey"] = prev["apiKey"];
  }
  for (const section of SECTIONS) {
    const n = out[section] as Loose | undefined;
    const p = prev[section] as Loose | undefined;
    const path = `${section}.apiKey`;
    if (p?.["apiKey"] === undefined || clear.has(path) || n?.["apiKey"] !== undefined) continue;
    if ((n?.["provider"] ?? out["provider"]) === (p["provider"] ?? prev["provider"])) {
      out[section] = { ...n, apiKey: p["apiKey"] };
    }
  }
  return out as LlmConfigInput;
}

/** What changed between two admin layers, by setting; key values never appear. */
function diff(before: LlmConfigInput, after: LlmConfigInput): ModelSettingChange[] {
  const flat = (input: LlmConfigInput) => {
    const out = new Map<string, unknown>();
    for (const [key, value] of Object.entries(input as Loose)) {
      if ((SECTIONS as readonly string[]).includes(key) && typeof value === "object" && value) {
        for (const [field, v] of Object.entries(value as Loose)) out.set(`${key}.${field}`, v);
      } else {
        out.set(key, value);
      }
    }
    return out;
  };
  const a = flat(before);
  const b = flat(after);
  const changes: ModelSettingChange[] = [];
  for (const path of new Set([...a.keys(), ...b.keys()])) {
    const was = a.get(path);
    const now = b.get(path);
    if (was === now) continue;
    if (path.endsWith("apiKey")) {
      changes.push({
        setting: path,
        change: now === undefined ? "cleared" : was === undefined ? "set" : "replaced",
      });
    } else {
      changes.push({ setting: path, change: `${show(was)} → ${show(now)}` });
    }
  }
  return changes;
}

function show(value: unknown): string {
  return value === undefined ? "(unset)" : JSON.stringify(value);
}

function validationError(error: LlmConfigError): NexusError {
  return new NexusError("validation_failed", error.message, {
    details: { issues: error.issues },
  });
}
