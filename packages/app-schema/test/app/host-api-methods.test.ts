import { describe, expect, it } from "vitest";
import {
  expandHostApiGrant,
  HOST_API_METHODS,
  HOST_API_NAMESPACES,
  isHostApiGrantToken,
  isHostApiMethod,
} from "../../src/app/host-api-methods.js";
import {
  APP_PERMISSIONS,
  permissionForMethod,
  PERMISSION_FOR_METHOD,
} from "../../src/app/permissions.js";

describe("HOST_API_METHODS", () => {
  it("covers every namespace of the Reference grant table", () => {
    expect([...HOST_API_NAMESPACES].sort()).toEqual(
      [
        "agent",
        "apps",
        "artifact",
        "chat",
        "credentials",
        "files",
        "fs",
        "image",
        "llm",
        "prefs",
        "storage",
        "tools",
        "upload",
        "web",
        "window",
      ].sort(),
    );
    for (const namespace of HOST_API_NAMESPACES)
      expect(HOST_API_METHODS[namespace].length).toBeGreaterThan(0);
    expect(HOST_API_METHODS.storage).toEqual(["get", "set", "delete", "list"]);
    expect(HOST_API_METHODS.agent).toContain("session.catalog");
  });

  it("knows the camel-case web spellings the dispatcher routes", () => {
    expect(isHostApiMethod("web", "imageSearch")).toBe(true);
    expect(isHostApiMethod("web", "image_search")).toBe(true);
    expect(isHostApiMethod("web", "crawl")).toBe(false);
    expect(isHostApiMethod("nope", "get")).toBe(false);
  });
});

describe("expandHostApiGrant (ruling A1)", () => {
  it("expands read and write aliases to method names", () => {
    expect(expandHostApiGrant("storage", ["read"])).toEqual(["get", "list"]);
    expect(expandHostApiGrant("storage", ["write"])).toEqual(["set", "delete"]);
    expect(expandHostApiGrant("chat", ["read"])).toEqual(["read_history"]);
    expect(expandHostApiGrant("prefs", ["read"])).toEqual(["get"]);
  });

  it("expands * to every method, in table order, without duplicates", () => {
    expect(expandHostApiGrant("image", ["*", "edit"])).toEqual(["generate", "edit"]);
    expect(expandHostApiGrant("storage", ["list", "get", "read"])).toEqual(["get", "list"]);
  });

  it("drops unknown tokens and namespaces instead of granting them", () => {
    expect(expandHostApiGrant("storage", ["reed"])).toEqual([]);
    expect(expandHostApiGrant("mobile", ["*"])).toEqual([]);
    expect(expandHostApiGrant("web", ["imageFetch"])).toEqual(["image_fetch"]);
  });

  it("accepts only methods, aliases and * as grant tokens", () => {
    expect(isHostApiGrantToken("storage", "write")).toBe(true);
    expect(isHostApiGrantToken("files", "read")).toBe(false);
    expect(isHostApiGrantToken("fs", "read")).toBe(true);
    expect(isHostApiGrantToken("llm", "*")).toBe(true);
  });
});

describe("permissions", () => {
  it("maps gated methods to allow-listed permissions", () => {
    for (const permission of Object.values(PERMISSION_FOR_METHOD))
      expect(APP_PERMISSIONS).toContain(permission);
    expect(permissionForMethod("storage", "delete")).toBe("storage.write");
    expect(permissionForMethod("chat", "read_history")).toBe("chat.read");
    expect(permissionForMethod("window", "close")).toBeUndefined();
  });
});
