// E7: an executa's versions, newest first; a 404 is an empty list (as the published CLI takes it).
import type { NexusClient } from "../account/nexus-client.js";

export interface VersionRow {
  id: number;
  version: string;
  content_hash: string;
  in_published_app?: boolean;
  created_at?: string;
}

export async function fetchVersions(
  client: NexusClient,
  id: number,
  ref: string,
): Promise<VersionRow[]> {
  const res = await client.get(`/api/v1/executas/my/tools/${id}/versions`, {
    what: `listing versions of ${ref}`,
    allowStatuses: [404],
  });
  return res.status === 404 || !Array.isArray(res.body) ? [] : (res.body as VersionRow[]);
}
