// Minted tool ids (A44, S24): `tool-{handle}-{slug}-{uniq}` and `skill-{handle}-{slug}-{uniq}`.
// Mint-only: a client-supplied tool_id is never used. `uniq` is 6 random base-36 characters, so a
// re-created executa with the same slug never collides with the old one's id.
import { randomInt } from "node:crypto";
import type { ExecutaType } from "./executa-store.js";

const ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";

export function mintToolId(type: ExecutaType, handle: string, slug: string): string {
  let uniq = "";
  for (let i = 0; i < 6; i++) uniq += ALPHABET[randomInt(ALPHABET.length)];
  return `${type}-${handle}-${slug}-${uniq}`;
}
