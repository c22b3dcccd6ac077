import { describe, expect, it } from "vitest";
import { ReverseRpcRouter } from "../../src/router/reverse-rpc-router.js";
import { allowedScopes, checkScope } from "../../src/router/storage-scope.js";
import { createStaticGrantPolicy } from "../../src/services/grants.js";
import type { StorageGrant } from "../../src/services/grants.js";
import { createRecordingServices } from "../../src/services/recording-services.js";
import { storageOwner } from "../../src/services/storage-service.js";
import { NEVER, expectRpcError, invokeStart, sessionInfo } from "./helpers.js";

async function open(grant: StorageGrant = {}, app?: { appId: string; appScopeGranted: boolean }) {
  const services = createRecordingServices();
  const router = new ReverseRpcRouter({
    services,
    grants: createStaticGrantPolicy({ storage: grant, files: grant }),
  });
  const session = router.attach(sessionInfo());
  await session.beginInvoke(invokeStart("inv-1", app ? { app } : {}));
  return { session, services };
}

describe("storage scopes (H14)", () => {
  it("defaults an omitted scope to tool for storage/* and files/*", async () => {
    const { session, services } = await open();
    await session.handleRequest("storage/set", { key: "k", value: 1 }, NEVER);
    await session.handleRequest("files/download_url", { path: "a.txt" }, NEVER);
    expect(services.calls.map((c) => c.params["scope"])).toEqual(["tool", "tool"]);
  });

  it("allows user and tool scopes to plugins", async () => {
    const { session, services } = await open();
    await session.handleRequest("storage/get", { key: "k", scope: "user" }, NEVER);
    await session.handleRequest("files/list", { scope: "tool" }, NEVER);
    expect(services.calls).toHaveLength(2);
  });

  it("denies scope app to a plugin with Nexus' exact message", async () => {
    const { session, services } = await open();
    for (const method of ["storage/get", "files/delete"]) {
      await expectRpcError(
        session.handleRequest(method, { key: "k", path: "p", scope: "app" }, NEVER),
        -32021,
        "STORAGE_NOT_GRANTED",
        "storage_token does not permit scope='app'; allowed=['tool', 'user']",
      );
    }
    expect(services.calls).toHaveLength(0);
  });

  it("allows scope app when the invoke comes from an app whose grant includes it", async () => {
    const { session, services } = await open({}, { appId: "app-9", appScopeGranted: true });
    await session.handleRequest("storage/get", { key: "k", scope: "app" }, NEVER);
    const call = services.calls[0];
    expect(call?.ctx.app).toEqual({ appId: "app-9", appScopeGranted: true });
    expect(call && storageOwner("app", call.ctx)).toEqual({
      scope: "app",
      userId: "user-1",
      appId: "app-9",
    });
  });

  it("denies scope app when the app's grant does not include it", async () => {
    const { session } = await open({}, { appId: "app-9", appScopeGranted: false });
    await expectRpcError(
      session.handleRequest("storage/get", { key: "k", scope: "app" }, NEVER),
      -32021,
      "STORAGE_NOT_GRANTED",
      "storage_token does not permit scope='app'; allowed=['tool', 'user']",
    );
  });

  it("narrows scopes to the grant's allowedScopes", async () => {
    const { session } = await open({ allowedScopes: ["tool"] });
    await expectRpcError(
      session.handleRequest("storage/get", { key: "k", scope: "user" }, NEVER),
      -32021,
      "STORAGE_NOT_GRANTED",
      "storage_token does not permit scope='user'; allowed=['tool']",
    );
  });

  it("never lets a grant smuggle in the app scope", () => {
    const grant = { allowedScopes: ["user", "tool", "app"] } as unknown as StorageGrant;
    expect(allowedScopes(grant, undefined)).toEqual(["tool", "user"]);
    expect(allowedScopes({}, { appScopeGranted: true })).toEqual(["app", "tool", "user"]);
    expect(checkScope(undefined, ["tool"])).toEqual({ ok: true, scope: "tool" });
  });

  it("names owners per scope", () => {
    const ctx = { userId: "u", toolId: "t" };
    expect(storageOwner("user", ctx)).toEqual({ scope: "user", userId: "u" });
    expect(storageOwner("tool", ctx)).toEqual({ scope: "tool", userId: "u", toolId: "t" });
    expect(() => storageOwner("app", ctx)).toThrow(/app context/);
  });
});
