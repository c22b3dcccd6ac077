// What a client needs to install an executa (R78–R80): the distribution fields of one frozen
// version, never the live row, so an install is reproducible. The owner sees every version of
// their executas; anyone signed in sees the versions of public and app_bundled ones (the App
// Store installs bundled executas for its users); a private one is "not found" to others.
import { compareAppVersions } from "@anna-ai/app-schema";
import { NexusError } from "../core/errors.js";
import type { User } from "../stores/types.js";
import type { ExecutaStore, JsonObject } from "./executa-store.js";

export interface InstallableVersion {
  tool_id: string;
  executa_type: string;
  name: string;
  slug: string;
  visibility: string;
  version: string;
  distribution_type: string | null;
  package_name: string | null;
  executable_name: string | null;
  binary_urls: JsonObject | null;
  /** Newest first, so a client can offer `--version`. */
  versions: string[];
}

const str = (v: unknown): string | null => (typeof v === "string" ? v : null);

export async function installableVersion(
  store: ExecutaStore,
  user: User,
  toolId: string,
  version: string | undefined,
): Promise<InstallableVersion> {
  const e = await store.findByToolId(toolId);
  const visible = e !== undefined && (e.ownerId === user.id || e.visibility !== "private");
  if (!e || !visible) {
    throw new NexusError(
      "not_found",
      `no installable executa ${toolId}: it does not exist or is private to its author`,
    );
  }
  if (e.type === "skill") {
    throw new NexusError(
      "bad_request",
      `${toolId} is a skill; skills load from their SKILL.md and have nothing to install`,
    );
  }
  const versions = (await store.listVersions(e.id)).sort((a, b) =>
    compareAppVersions(b.version, a.version),
  );
  const chosen = version === undefined ? versions[0] : versions.find((v) => v.version === version);
  if (!chosen) {
    throw new NexusError(
      "not_found",
      version === undefined
        ? `${toolId} has no frozen version yet; its author publishes one with \`anna-app executa publish\``
        : `${toolId} has no version ${version}; it has ${versions.map((v) => v.version).join(", ") || "none"}`,
    );
  }
  const s = chosen.snapshot;
  const urls = s.binary_urls;
  return {
    tool_id: e.toolId,
    executa_type: e.type,
    name: e.name,
    slug: e.slug,
    visibility: e.visibility,
    version: chosen.version,
    distribution_type: str(s.distribution_type),
    package_name: str(s.package_name),
    executable_name: str(s.executable_name),
    binary_urls:
      urls !== null && typeof urls === "object" && !Array.isArray(urls)
        ? (urls as JsonObject)
        : null,
    versions: versions.map((v) => v.version),
  };
}
