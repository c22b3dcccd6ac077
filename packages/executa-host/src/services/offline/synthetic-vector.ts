// Deterministic stand-in embeddings: SHA-256 in counter mode over (alias, text) gives the
// components, which are scaled to unit length. Same text and alias → the same vector on every
// machine (integer hashing, then IEEE-754 arithmetic in a fixed order). The vectors carry no
// meaning: similar texts are NOT close, only equal texts are equal (D-host-87).
import { createHash } from "node:crypto";

const BYTES_PER_COMPONENT = 4;
const SHA256_BYTES = 32;
const UINT32_RANGE = 2 ** 32;

export function syntheticEmbedding(text: string, alias: string, dimensions: number): number[] {
  const seed = createHash("sha256").update(alias).update("\u0000").update(text, "utf8").digest();
  const perBlock = SHA256_BYTES / BYTES_PER_COMPONENT;
  const components = new Array<number>(dimensions);
  const counter = Buffer.alloc(4);
  for (let block = 0; block * perBlock < dimensions; block++) {
    counter.writeUInt32BE(block);
    const bytes = createHash("sha256").update(seed).update(counter).digest();
    for (let j = 0; j < perBlock && block * perBlock + j < dimensions; j++) {
      // Uniform in [-1, 1).
      components[block * perBlock + j] =
        (bytes.readUInt32BE(j * BYTES_PER_COMPONENT) / UINT32_RANGE) * 2 - 1;
    }
  }
  let sumOfSquares = 0;
  for (const c of components) sumOfSquares += c * c;
  const norm = Math.sqrt(sumOfSquares);
  // A zero vector needs 4·dimensions zero bytes from SHA-256; keep the guard for dimensions 0.
  return norm === 0 ? components : components.map((c) => c / norm);
}
