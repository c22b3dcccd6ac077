// Apps import the kit by its published name; this resolves `@anna-ai/cli/test` through the
// package's `exports` map (built `dist/`), types included.
import { describe, expect, it } from "vitest";
import { HostApiError, HostRpcError, mountBundle } from "@anna-ai/cli/test";
import { HostApiError as SdkHostApiError } from "@anna-ai/app-runtime";

describe("@anna-ai/cli/test", () => {
  it("exports mountBundle and the SDK's own HostApiError class", async () => {
    expect(HostApiError).toBe(SdkHostApiError);
    expect(HostRpcError).toBe(HostApiError);
    const harness = await mountBundle({ manifest: { ui: { host_api: {} } }, projectDir: "/" });
    await expect(harness.runtime.storage.get("k")).rejects.toBeInstanceOf(HostApiError);
  });
});
