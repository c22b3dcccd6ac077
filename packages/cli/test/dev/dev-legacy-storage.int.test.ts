// The harness's storage is the legacy runtime_state backend, which has no optimistic concurrency:
// `if_match` is accepted and ignored (the write lands whatever the etag), and the panel's entry
// for such a call carries a warning saying so, so an author does not think the write was guarded.
import { describe, expect, it } from "vitest";
import { copyFixtureApp, rpc, startHarness, tokenOf } from "./helpers.js";

describe("anna-app dev: if_match on legacy storage", () => {
  it("writes whatever the etag and warns in the panel entry of the call", async () => {
    const { dir } = copyFixtureApp("frames-app");
    const server = await startHarness({ dir });
    const token = tokenOf(server);
    await rpc(server, token, "storage", "set", { key: "n", value: 1 });
    expect(server.panel.calls.at(-1)?.warning).toBeUndefined();

    const stale = await rpc(server, token, "storage", "set", {
      key: "n",
      value: 2,
      if_match: 'W/"1-not-the-current-etag"',
    });
    expect(stale.body).toMatchObject({ ok: true });
    expect(server.panel.calls.at(-1)).toMatchObject({
      ns: "storage",
      method: "set",
      outcome: "allowed",
      warning: expect.stringMatching(
        /^if_match is ignored: the legacy storage backend .* precondition_failed$/,
      ),
    });
    expect((await rpc(server, token, "storage", "get", { key: "n" })).body).toMatchObject({
      ok: true,
      result: { value: 2 },
    });
    // The page boots with the warning too (its call log is built from these entries).
    const state = (await (await fetch(`${server.url}dev/api/state`)).json()) as {
      calls: Array<{ warning?: string }>;
    };
    expect(state.calls.filter((c) => c.warning !== undefined)).toHaveLength(1);
  });
});
