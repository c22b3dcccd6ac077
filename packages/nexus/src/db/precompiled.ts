// A query built and compiled once, then run with new parameters on every call: building and
// compiling a Kysely query costs more than SQLite running it, and on the per-request hot paths
// (who is this session's or token's user?) that was a tenth of a server's time under KV load.
import type { CompiledQuery, Kysely } from "kysely";

const MARK = "\u0000precompiled-parameter:";

/**
 * `build` receives one placeholder per argument and returns the query; it is compiled at the
 * first call and each placeholder's parameter slot is filled with the call's argument from then
 * on. Placeholders may only be used as values (never to choose tables, columns or operators), so
 * the SQL text is the same whatever the arguments.
 */
export function precompiled<DB, Args extends unknown[], Row>(
  db: Kysely<DB>,
  arity: Args["length"],
  build: (...args: Args) => { compile(): CompiledQuery<Row> },
): (...args: Args) => Promise<Row[]> {
  let compiled: CompiledQuery<Row> | undefined;
  let slots: number[] = [];
  return async (...args: Args) => {
    if (compiled === undefined) {
      const marks = Array.from({ length: arity }, (_, i) => `${MARK}${i}`);
      const q = build(...(marks as Args)).compile();
      slots = q.parameters.map((p) => (typeof p === "string" ? marks.indexOf(p) : -1));
      const unused = marks.findIndex((_, i) => !slots.includes(i));
      if (unused >= 0) throw new Error(`precompiled query never uses argument ${unused}`);
      compiled = q;
    }
    const q = compiled;
    const parameters = q.parameters.map((p, j) => (slots[j]! >= 0 ? args[slots[j]!] : p));
    const res = await db.executeQuery<Row>({ ...q, parameters });
    return res.rows;
  };
}
