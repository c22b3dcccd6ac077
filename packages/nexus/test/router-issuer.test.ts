// The keyring as executa-host's TokenIssuer: the reverse-RPC router mints its per-invoke tokens
// with it, and Nexus's verifier accepts each for its family and binding, and nothing else.
import { randomBytes } from "node:crypto";
import {
  createAllowAllGrantPolicy,
  createRecordingServices,
  ReverseRpcRouter,
} from "@anna-ai/executa-host";
import { describe, expect, it } from "vitest";
import { manualClock } from "../src/core/clock.js";
import { memoryStores } from "../src/stores/memory-stores.js";
import { FAMILY_AUDIENCES } from "../src/tokens/audiences.js";
import { kekFromBytes } from "../src/tokens/key-encryption.js";
import { SigningKeyring } from "../src/tokens/keyring.js";
import { verifyNexusToken } from "../src/tokens/verify-token.js";

describe("SigningKeyring under executa-host's ReverseRpcRouter", () => {
  it("mints the invoke's tokens; each verifies for its family and binding only", async () => {
    const clock = manualClock(Date.now());
    const stores = memoryStores();
    const keyring = new SigningKeyring({
      store: stores.signingKeys,
      kek: kekFromBytes(randomBytes(32), "test"),
      clock,
    });
    const router = new ReverseRpcRouter({
      services: createRecordingServices(),
      grants: createAllowAllGrantPolicy(),
      tokens: keyring,
    });
    const session = router.attach({
      toolId: "tool-a",
      userId: "42",
      pluginName: "plugin-a",
      protocolVersion: "2.0",
      pluginCapabilities: {},
      hostCapabilities: ["llm.sample", "aps.kv", "aps.files", "llm.image", "host.upload"],
    });
    const context = await session.beginInvoke({
      invokeId: "inv-1",
      tool: "do-it",
      deadlineMs: clock.now() + 60_000,
    });
    const deps = { keyring, stores, clock };
    const binding = { userId: "42", toolId: "tool-a", invokeId: "inv-1" };
    const cases = [
      ["sampling_token", FAMILY_AUDIENCES.sampling],
      ["storage_token", FAMILY_AUDIENCES.files],
      ["image_token", FAMILY_AUDIENCES.image],
      ["upload_token", FAMILY_AUDIENCES.upload],
    ] as const;
    for (const [field, audience] of cases) {
      const token = context[field];
      expect(token, field).toBeTypeOf("string");
      const v = await verifyNexusToken(deps, token!, audience, binding);
      expect(v.userIdNumber).toBe(42);
      await expect(
        verifyNexusToken(deps, token!, audience, { ...binding, invokeId: "inv-2" }),
      ).rejects.toMatchObject({ code: "forbidden" });
      await expect(
        verifyNexusToken(deps, token!, audience, { ...binding, toolId: "tool-b" }),
      ).rejects.toMatchObject({ code: "forbidden" });
    }
    await expect(
      verifyNexusToken(deps, context.storage_token!, FAMILY_AUDIENCES.sampling),
    ).rejects.toMatchObject({ code: "forbidden" });
  });
});
