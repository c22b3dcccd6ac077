// --grant / --no-grant / --storage-scopes as the router's gate 3 sees them.
import { GRANT_FAMILIES } from "@anna-ai/executa-host";
import { describe, expect, it } from "vitest";
import { ExitError } from "../../src/cli/exit-error.js";
import { parseGrantFlags } from "../../src/executa-dev/grant-flags.js";

const granted = (flags: Record<string, string | string[]>) => [...parseGrantFlags(flags).granted];

describe("grant flags", () => {
  it("grants every family by default", () => {
    expect(granted({})).toEqual([...GRANT_FAMILIES]);
  });

  it("--grant narrows to the families named (repeatable or comma-separated)", () => {
    expect(granted({ grant: ["storage", "sampling,files"] }).sort()).toEqual([
      "files",
      "sampling",
      "storage",
    ]);
  });

  it("--no-grant withdraws a family", () => {
    expect(granted({ "no-grant": ["image"] })).not.toContain("image");
  });

  it("rejects unknown families with exit 2, listing the valid ones", () => {
    expect(() => parseGrantFlags({ grant: ["llm"] })).toThrow(ExitError);
    expect(() => parseGrantFlags({ grant: ["llm"] })).toThrow(
      /use one of sampling, agent, storage/,
    );
  });

  it("passes user/tool scopes to the storage and files grants; app is accepted but not granted", async () => {
    const { policy, storageScopes } = parseGrantFlags({ "storage-scopes": "user,app" });
    expect(storageScopes).toEqual(["user", "app"]);
    expect(await policy.isGranted("u", "t", "storage")).toEqual({ allowedScopes: ["user"] });
    expect(await policy.isGranted("u", "t", "files")).toEqual({ allowedScopes: ["user"] });
  });

  it("rejects an empty or unknown scope list", () => {
    expect(() => parseGrantFlags({ "storage-scopes": "," })).toThrow(
      /at least one of user, app, tool/,
    );
    expect(() => parseGrantFlags({ "storage-scopes": "user,team" })).toThrow(
      /'team' is not a storage scope/,
    );
  });

  it("grants image generation and editing", async () => {
    const { policy } = parseGrantFlags({});
    expect(await policy.isGranted("u", "t", "image")).toEqual({ generate: true, edit: true });
  });
});
