// What a version freezes and how "did anything change?" is decided: the snapshot is the
// executa's identity fields plus its payload, with the version; its hash leaves the version out,
// so re-freezing unchanged content under a new number is caught (S28, L3322).
import { createHash } from "node:crypto";
import { canonicalJson } from "@anna-ai/executa-host";
import type { Executa, JsonObject } from "./executa-store.js";

export function snapshotOf(e: Executa, version: string): JsonObject {
  return {
    ...e.payload,
    name: e.name,
    description: e.description,
    executa_type: e.type,
    slug: e.slug,
    tool_id: e.toolId,
    version,
  };
}

export function snapshotHash(snapshot: JsonObject): string {
  const { version: _version, ...content } = snapshot;
  return createHash("sha256").update(canonicalJson(content), "utf8").digest("hex");
}
