// Writes json-schema/executa/*.json and json-schema/app/*.json from the zod schemas.
// Run: npm run -w @anna-ai/app-schema gen:json-schema
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { format, resolveConfig } from "prettier";
import { generateAppJsonSchemas } from "../src/app/json-schemas.js";
import { generateExecutaJsonSchemas } from "../src/json-schema/registry.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "json-schema");

async function write(
  folder: string,
  documents: Record<string, Record<string, unknown>>,
): Promise<void> {
  const outDir = join(root, folder);
  mkdirSync(outDir, { recursive: true });
  for (const stale of readdirSync(outDir)) {
    if (stale.endsWith(".json") && !(stale in documents)) rmSync(join(outDir, stale));
  }
  for (const [file, document] of Object.entries(documents)) {
    const path = join(outDir, file);
    // Formatted like the rest of the tree so `prettier --check .` stays green.
    const options = (await resolveConfig(path)) ?? {};
    writeFileSync(path, await format(JSON.stringify(document), { ...options, filepath: path }));
  }
  process.stdout.write(`wrote ${Object.keys(documents).length} schemas to ${outDir}\n`);
}

await write("executa", generateExecutaJsonSchemas());
await write("app", generateAppJsonSchemas());
