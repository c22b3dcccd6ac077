import { z } from "zod";
import { ExecutaJsonSchema } from "../executa/executa-json.js";
import { SkillFrontmatterSchema } from "../skill/frontmatter.js";
import { SkillMetadataSchema } from "../skill/metadata.js";
import { AnnaAppEventSchema } from "./events.js";
import { AppListingSchema } from "./listing.js";
import { AppManifestSchema } from "./manifest.js";
import { UiSectionSchema } from "./ui-section.js";

/** Base of every app-format `$id`; the path segment is the version, bumped on breaking changes. */
export const APP_JSON_SCHEMA_ID_BASE = "https://schemas.anna-ai.dev/app/v1/";

/**
 * The app file formats exported as JSON Schema (`json-schema/app/<stem>.json`). Rules that span
 * fields (A13, unique ids, view defaults, `host_api.tools` resolution) and code-point lengths
 * beyond `maxLength` live in the `validateX` functions, not in these documents.
 */
export const APP_JSON_SCHEMAS: Readonly<Record<string, z.ZodType>> = Object.freeze({
  manifest: AppManifestSchema,
  "ui-manifest-section": UiSectionSchema,
  "app-json": AppListingSchema,
  "executa-json": ExecutaJsonSchema,
  "skill-frontmatter": SkillFrontmatterSchema,
  "skill-metadata": SkillMetadataSchema,
  "anna-app-event": AnnaAppEventSchema,
});

const TITLES: Readonly<Record<string, string>> = {
  manifest: "AppManifest",
  "ui-manifest-section": "UiManifestSection",
  "app-json": "AppListing",
  "executa-json": "ExecutaJson",
  "skill-frontmatter": "SkillFrontmatter",
  "skill-metadata": "SkillMetadata",
  "anna-app-event": "AnnaAppEvent",
};

/** Every app-format schema as a JSON Schema document (draft 2020-12), keyed by file name. */
export function generateAppJsonSchemas(): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const [stem, schema] of Object.entries(APP_JSON_SCHEMAS)) {
    const { $schema, ...body } = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" });
    out[`${stem}.json`] = {
      $schema,
      $id: `${APP_JSON_SCHEMA_ID_BASE}${stem}.json`,
      title: TITLES[stem] ?? stem,
      ...body,
    };
  }
  return out;
}
