// `GET /api/v1/me` with the PAT as Bearer: who the token belongs to. Used by login (to name the
// account it saved) and doctor (to prove the saved PAT is accepted).
import type { NexusClient } from "./nexus-client.js";

export interface Me {
  id: number | string;
  email?: string;
  handle?: string | null;
}

export async function fetchMe(client: NexusClient, signal?: AbortSignal): Promise<Me> {
  const res = await client.get<Record<string, unknown>>("/api/v1/me", signal ? { signal } : {});
  const b = res.body !== null && typeof res.body === "object" ? res.body : {};
  const id = typeof b.id === "number" || typeof b.id === "string" ? b.id : "?";
  return {
    id,
    ...(typeof b.email === "string" ? { email: b.email } : {}),
    ...(typeof b.developer_handle === "string" || b.developer_handle === null
      ? { handle: b.developer_handle }
      : {}),
  };
}
