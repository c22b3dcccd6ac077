// Which credentials an executa declares, for one user: read from the version that user has
// (their pinned `user_executas.executa_version_id`, else the newest frozen one). The describe
// result cached by the runtime (executa_manifests) is what the binary itself declares, so it
// wins; before the first describe the Hub's frozen snapshot (the publish form copies the
// manifest's `credentials` there) stands in, so a user can enter keys before the first run.
import { type CredentialDeclaration, CredentialDeclarationSchema } from "@anna-ai/app-schema";
import type { Kysely } from "kysely";
import type { Database } from "../db/schema.js";

/** A declaration with the spec's defaults applied (`required` and `sensitive` default true). */
export interface DeclaredCredential {
  name: string;
  displayName: string;
  description: string | null;
  required: boolean;
  sensitive: boolean;
  /** Only for non-sensitive fields: the spec ignores a default on a sensitive one. */
  default: string | null;
}

function normalized(d: CredentialDeclaration): DeclaredCredential {
  const sensitive = d.sensitive ?? true;
  return {
    name: d.name,
    displayName: d.display_name ?? d.name,
    description: d.description ?? null,
    required: d.required ?? true,
    sensitive,
    default: sensitive ? null : (d.default ?? null),
  };
}

/** The valid entries of a `credentials` array (first one wins on a repeated name). */
function declarationsIn(raw: unknown): DeclaredCredential[] | undefined {
  if (!Array.isArray(raw)) return undefined;
  const out = new Map<string, DeclaredCredential>();
  for (const item of raw) {
    const parsed = CredentialDeclarationSchema.safeParse(item);
    if (parsed.success && !out.has(parsed.data.name))
      out.set(parsed.data.name, normalized(parsed.data));
  }
  return [...out.values()];
}

function parsedJson(text: string | null | undefined): Record<string, unknown> | undefined {
  if (!text) return undefined;
  try {
    const v: unknown = JSON.parse(text);
    return v !== null && typeof v === "object" ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The user's executa's declared credentials; `undefined` when the user does not have `toolId`
 * (another user's executa reads the same as a missing one).
 */
export async function declaredCredentials(
  db: Kysely<Database>,
  userId: number,
  toolId: string,
): Promise<DeclaredCredential[] | undefined> {
  const mine = await db
    .selectFrom("user_executas")
    .innerJoin("executas", "executas.id", "user_executas.executa_id")
    .select(["user_executas.executa_version_id", "executas.id as executa_id"])
    .where("user_executas.user_id", "=", userId)
    .where("executas.tool_id", "=", toolId)
    .executeTakeFirst();
  if (mine === undefined) return undefined;
  let versionQuery = db
    .selectFrom("executa_versions")
    .leftJoin("executa_manifests", "executa_manifests.executa_version_id", "executa_versions.id")
    .select(["executa_versions.snapshot", "executa_manifests.manifest"])
    .where("executa_versions.executa_id", "=", mine.executa_id);
  versionQuery =
    mine.executa_version_id === null
      ? versionQuery.orderBy("executa_versions.id", "desc")
      : versionQuery.where("executa_versions.id", "=", mine.executa_version_id);
  const version = await versionQuery.limit(1).executeTakeFirst();
  if (version === undefined) return [];
  const described = parsedJson(version.manifest);
  const fromDescribe = declarationsIn(described?.credentials);
  if (fromDescribe !== undefined) return fromDescribe;
  const snapshot = parsedJson(version.snapshot);
  const snapshotManifest = snapshot?.manifest as Record<string, unknown> | undefined;
  return (
    declarationsIn(snapshot?.credentials) ?? declarationsIn(snapshotManifest?.credentials) ?? []
  );
}
