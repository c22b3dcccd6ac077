// SQLite re-prepares a statement on every run when its LIMIT is a bound parameter: the SQLite
// better-sqlite3 builds has SQLITE_ENABLE_STAT4, under which the planner reads a bound LIMIT's
// value, so every `limit ?` recompiles (≈ 6 µs on a one-row lookup, three times the lookup
// itself; the session lookup of every cookie request was one). This plugin writes an integer
// LIMIT into the SQL text instead, on SQLite only. OFFSET does not have the cost and stays bound
// (D-nexus-166).
import {
  type KyselyPlugin,
  LimitNode,
  OperationNodeTransformer,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
  ValueNode,
} from "kysely";

class LiteralLimitTransformer extends OperationNodeTransformer {
  protected override transformLimit(node: LimitNode): LimitNode {
    const limit = node.limit;
    // Only a plain safe integer becomes literal text: anything else (a placeholder string of
    // precompiled.ts, an expression) stays exactly as Kysely built it.
    if (ValueNode.is(limit) && !limit.immediate && Number.isSafeInteger(limit.value)) {
      return LimitNode.create(ValueNode.createImmediate(limit.value));
    }
    return super.transformLimit(node);
  }
}

export class LiteralLimitPlugin implements KyselyPlugin {
  readonly #transformer = new LiteralLimitTransformer();

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return this.#transformer.transformNode(args.node);
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}
