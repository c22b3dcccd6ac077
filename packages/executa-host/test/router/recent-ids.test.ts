import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RecentIds } from "../../src/router/recent-ids.js";

/** The reference: a Set whose first entry is the oldest, re-adding moves an id to the end. */
function modelAdd(model: Set<string>, id: string, capacity: number): void {
  model.delete(id);
  model.add(id);
  if (model.size > capacity) {
    const oldest = model.values().next().value as string;
    model.delete(oldest);
  }
}

describe("RecentIds", () => {
  it("forgets the oldest id once more than its capacity were added", () => {
    const recent = new RecentIds(3);
    for (const id of ["a", "b", "c", "d"]) recent.add(id);
    expect(["a", "b", "c", "d"].map((id) => recent.has(id))).toEqual([false, true, true, true]);
    expect(recent.size).toBe(3);
  });

  it("treats an id added again as the newest", () => {
    const recent = new RecentIds(3);
    for (const id of ["a", "b", "c", "a", "d"]) recent.add(id);
    expect(["a", "b", "c", "d"].map((id) => recent.has(id))).toEqual([true, false, true, true]);
  });

  it("remembers exactly what a Set of the last distinct ids remembers", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.array(fc.constantFrom("a", "b", "c", "d", "e", "f", "g", "h"), { maxLength: 60 }),
        (capacity, ids) => {
          const recent = new RecentIds(capacity);
          const model = new Set<string>();
          for (const id of ids) {
            recent.add(id);
            modelAdd(model, id, capacity);
            for (const probe of "abcdefgh") expect(recent.has(probe)).toBe(model.has(probe));
            expect(recent.size).toBe(model.size);
          }
        },
      ),
    );
  });

  it("rejects a capacity that is not a positive integer", () => {
    expect(() => new RecentIds(0)).toThrow(RangeError);
    expect(() => new RecentIds(1.5)).toThrow(RangeError);
  });
});
