// SQLite re-prepares a statement on every run when its LIMIT is a bound parameter: the SQLite
// better-sqlite3 builds has SQLITE_ENABLE_STAT4, under which the planner reads a bound LIMIT's
// value, so every `limit ?` recompiles (≈ 6 µs on a one-row lookup, three times the lookup
// itself; the session lookup of every cookie request was one). This plugin writes an integer
// LIMIT into the SQL text instead, on SQLite only. OFFSET does not have the cost and stays bound
// (D-nexus-166).
import {
  type KyselyPlugin,
  LimitNode,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  SelectQueryNode,
  type UnknownRow,
  ValueNode,
} from "kysely";

export class LiteralLimitPlugin implements KyselyPlugin {
  /**
   * Only the root SELECT's LIMIT: every query passes through here when it is compiled, and
   * looking at the root costs nothing where a walk of the whole tree (OperationNodeTransformer)
   * would rebuild every node of every query. Subqueries are covered all the same: Kysely runs
   * the plugin on a subquery builder when it becomes part of the outer query.
   */
  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    if (!SelectQueryNode.is(node) || node.limit === undefined) return node;
    const limit = node.limit.limit;
    // Only a plain safe integer becomes literal text: anything else (a placeholder string of
    // precompiled.ts, an expression) stays exactly as Kysely built it.
    if (!ValueNode.is(limit) || limit.immediate || !Number.isSafeInteger(limit.value)) return node;
    return { ...node, limit: LimitNode.create(ValueNode.createImmediate(limit.value)) };
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}
