import { z } from "zod";
import {
  HOST_CAPABILITIES,
  isHostCapability,
  isStorageCapabilityMistake,
} from "../executa/host-capabilities.js";
import { APP_PERMISSIONS, isAppPermission } from "./permissions.js";
import { AppDevConfigSchema } from "./dev-block.js";
import { ExecutaRefSchema } from "./executa-ref.js";
import { didYouMean } from "./suggest.js";
import { boundedString, quote } from "./text.js";
import { UiSectionSchema } from "./ui-section.js";

/**
 * The app `manifest.json`, schema 1 and 2 (`AppManifest`, L4932–L5021, R90), `extra="forbid"`:
 * unknown top-level keys are errors, as in the platform's validator.
 */

export const APP_MANIFEST_SCHEMA_VERSIONS = Object.freeze([1, 2] as const);
export type AppManifestSchemaVersion = (typeof APP_MANIFEST_SCHEMA_VERSIONS)[number];
export const SYSTEM_PROMPT_ADDENDUM_MAX_CHARS = 4000;
export const USER_MESSAGE_PREFIX_TEMPLATE_MAX_CHARS = 500;
export const USER_MESSAGE_PLACEHOLDER = "{user_message}";

/** Non-overlapping occurrences of `{user_message}` (the rule is "exactly one", L5035). */
export function countUserMessagePlaceholders(template: string): number {
  return template.split(USER_MESSAGE_PLACEHOLDER).length - 1;
}

const PermissionSchema = z
  .string()
  .check((ctx) => {
    if (isAppPermission(ctx.value)) return;
    ctx.issues.push({
      code: "custom",
      input: ctx.value,
      message: `${quote(ctx.value)} is not an allowed permission.${didYouMean(ctx.value, APP_PERMISSIONS)} Allowed: ${APP_PERMISSIONS.join(", ")}`,
      params: { code: "manifest.permission" },
    });
  })
  .meta({ enum: [...APP_PERMISSIONS] });

const HostCapabilitySchema = z
  .string()
  .check((ctx) => {
    if (isHostCapability(ctx.value)) return;
    const hint = isStorageCapabilityMistake(ctx.value)
      ? ' Storage is declared as "aps.kv" / "aps.files" plus "aps.scope.<user|app|tool>.<read|write>".'
      : didYouMean(ctx.value, HOST_CAPABILITIES);
    ctx.issues.push({
      code: "custom",
      input: ctx.value,
      message: `${quote(ctx.value)} is not an allowed host capability.${hint} Allowed: ${HOST_CAPABILITIES.join(", ")}`,
      params: { code: "manifest.host_capability" },
    });
  })
  .meta({ enum: [...HOST_CAPABILITIES] });

const PrefixTemplateSchema = boundedString(0, USER_MESSAGE_PREFIX_TEMPLATE_MAX_CHARS)
  .check((ctx) => {
    const count = countUserMessagePlaceholders(ctx.value);
    if (count === 1) return;
    ctx.issues.push({
      code: "custom",
      input: ctx.value,
      message:
        count === 0
          ? `must contain the placeholder {user_message} exactly once; it has none (e.g. "[Research] {user_message}")`
          : `must contain the placeholder {user_message} exactly once; it has ${count}`,
      params: { code: "manifest.user_message_placeholder" },
    });
  })
  .meta({
    pattern:
      "^(?:(?!\\{user_message\\})[\\s\\S])*\\{user_message\\}(?:(?!\\{user_message\\})[\\s\\S])*$",
  });

export const AppManifestSchema = z
  .strictObject({
    /**
     * `1` (executas + prompt) or `2` (adds the `ui` runtime). The Reference (L10036) gives it a
     * default of 1; the guide calls it required (L4936), so a missing value is warned about.
     */
    schema: z
      .literal(APP_MANIFEST_SCHEMA_VERSIONS, {
        error: (issue) =>
          `must be 1 (chat-augmentation app) or 2 (app with a UI), not ${quote(issue.input)}`,
      })
      .default(1),
    /** Auto-installed with the app. Non-empty for schema 1 (A13). */
    required_executas: z.array(ExecutaRefSchema).default([]),
    /** Not auto-installed; documented to the model when the app is mentioned. */
    optional_executas: z.array(ExecutaRefSchema).default([]),
    permissions: z.array(PermissionSchema).default([]),
    host_capabilities: z.array(HostCapabilitySchema).default([]),
    system_prompt_addendum: boundedString(0, SYSTEM_PROMPT_ADDENDUM_MAX_CHARS).nullish(),
    user_message_prefix_template: PrefixTemplateSchema.nullish(),
    /** Free-form; stored only. */
    tags: z.array(z.string()).default([]),
    /** Required when `schema` is 2. */
    ui: UiSectionSchema.nullish(),
    /** Local harness only; see `stripDevBlock`. */
    dev: AppDevConfigSchema.nullish(),
  })
  .meta({
    // A13 and "ui required for schema 2", for JSON Schema consumers; the validator says it better.
    allOf: [
      {
        if: { properties: { schema: { const: 1 } } },
        then: {
          required: ["required_executas"],
          properties: { required_executas: { minItems: 1 } },
        },
      },
      {
        if: { properties: { schema: { const: 2 } }, required: ["schema"] },
        then: { required: ["ui"] },
      },
    ],
  });
export type AppManifest = z.infer<typeof AppManifestSchema>;
/** What authors write (defaults not yet applied). */
export type AppManifestInput = z.input<typeof AppManifestSchema>;

/** Top-level keys the manifest accepts, in the order the spec lists them. */
export const APP_MANIFEST_KEYS = Object.freeze(Object.keys(AppManifestSchema.shape));
