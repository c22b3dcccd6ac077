// The SDK's types are the contract's (`@anna-ai/app-schema/host-api`): checked by `tsc`
// (npm run typecheck) on calls a bundle would write. The functions are never run; the test only
// keeps vitest from calling the file empty.
import type { HostApiArgs, HostApiResult } from "@anna-ai/app-schema/host-api";
import { describe, expectTypeOf, it } from "vitest";
import type {
  AnnaAppRuntime,
  AppsDeckChange,
  JobSnapshot,
  Size,
  StorageGetResult,
  UploadedFile,
} from "../src/index.js";

function storageAndWindow(anna: AnnaAppRuntime) {
  expectTypeOf(anna.storage.get("k")).resolves.toEqualTypeOf<StorageGetResult>();
  expectTypeOf(anna.storage.get({ key: "k", scope: "user" })).resolves.toEqualTypeOf<
    HostApiResult<"storage.get">
  >();
  // @ts-expect-error -- key is required in the object form
  void anna.storage.get({ scope: "app" });
  // @ts-expect-error -- the contract's scopes are app, user and tool
  void anna.storage.get({ key: "k", scope: "world" });
  void anna.storage.set("k", { any: "value" });
  void anna.storage.list();
  expectTypeOf(anna.window.resize(400, 300)).resolves.toEqualTypeOf<Size>();
  // @ts-expect-error -- a title is a string
  void anna.window.set_title(5);
  void anna.window.close();
  void anna.window.report_error(new Error("boom"));
}

function toolsAndUploads(anna: AnnaAppRuntime) {
  expectTypeOf(anna.tools.invoke<{ n: number }>("t.list")).resolves.toEqualTypeOf<{ n: number }>();
  expectTypeOf(anna.tools.getJob("tjob_x")).resolves.toEqualTypeOf<JobSnapshot>();
  // @ts-expect-error -- clientTag is a string
  void anna.tools.invokeAsync({ tool_id: "t", clientTag: 1 });
  // The dispatcher's names (`bytes_b64`, `mime`: the guide's L6612), as the contract has them.
  expectTypeOf(
    anna.upload.inline({ bytes_b64: "aGk=", mime: "text/plain" }),
  ).resolves.toEqualTypeOf<UploadedFile>();
  // @ts-expect-error -- the Reference's names (L10722): the dispatcher refuses them today
  void anna.upload.inline({ content_b64: "aGk=", mime_type: "text/plain", filename: "a" });
  void anna.credentials.get_token("github", "acct-1");
  expectTypeOf(anna.apps.deck.add("notes", 0)).resolves.toEqualTypeOf<AppsDeckChange>();
  expectTypeOf<Parameters<typeof anna.llm.complete>[0]>().toEqualTypeOf<
    HostApiArgs<"llm.complete">
  >();
}

describe("SDK types from the Host API contract", () => {
  it("type-checks the calls a bundle writes (see npm run typecheck)", () => {
    expectTypeOf(storageAndWindow).toBeFunction();
    expectTypeOf(toolsAndUploads).toBeFunction();
  });
});
