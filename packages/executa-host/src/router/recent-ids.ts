// The last N distinct ids added, oldest forgotten first: how a router session tells a finished
// invoke from one that never existed. A Set alone would do, but evicting its oldest entry means
// iterating from the front past every entry deleted since V8 last rehashed the table (~500 on
// average at N = 1024, 0.3–0.6 µs per invoke); a ring of the same ids names the oldest directly.

export class RecentIds {
  readonly #capacity: number;
  readonly #ids = new Set<string>();
  /** The same ids, oldest at #head once the ring is full; #head stays 0 until then. */
  #ring: string[] = [];
  #head = 0;

  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new RangeError(`capacity must be a positive integer, got ${capacity}`);
    }
    this.#capacity = capacity;
  }

  get size(): number {
    return this.#ids.size;
  }

  has(id: string): boolean {
    return this.#ids.has(id);
  }

  /** Remember `id` as the newest; adding a remembered id again makes it the newest. */
  add(id: string): void {
    if (this.#ids.has(id)) {
      // Rare (an id ended twice): rebuild the order without it, oldest first.
      const ordered = [...this.#ring.slice(this.#head), ...this.#ring.slice(0, this.#head)];
      this.#ring = ordered.filter((known) => known !== id);
      this.#head = 0;
    } else {
      this.#ids.add(id);
    }
    if (this.#ring.length < this.#capacity) {
      this.#ring.push(id);
      return;
    }
    const oldest = this.#ring[this.#head] as string;
    this.#ids.delete(oldest);
    this.#ring[this.#head] = id;
    this.#head = (this.#head + 1) % this.#capacity;
  }
}
