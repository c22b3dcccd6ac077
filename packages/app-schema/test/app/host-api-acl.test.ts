import { describe, expect, it } from "vitest";
import { hostApiAllows, toolAllowed } from "../../src/app/host-api-acl.js";

describe("hostApiAllows", () => {
  it("always allows window methods and the handshake, even without host_api", () => {
    expect(hostApiAllows(undefined, "window", "set_title")).toBe(true);
    expect(hostApiAllows(null, "window", "hello")).toBe(true);
  });

  it("allows method-list namespaces by method name, alias or *", () => {
    const hostApi = { storage: ["read"], image: ["*"], web: ["imageSearch"] };
    expect(hostApiAllows(hostApi, "storage", "get")).toBe(true);
    expect(hostApiAllows(hostApi, "storage", "list")).toBe(true);
    expect(hostApiAllows(hostApi, "storage", "set")).toBe(false);
    expect(hostApiAllows(hostApi, "image", "edit")).toBe(true);
    expect(hostApiAllows(hostApi, "web", "image_search")).toBe(true);
    expect(hostApiAllows(hostApi, "chat", "append_artifact")).toBe(false);
    expect(hostApiAllows(hostApi, "mobile", "share")).toBe(false);
  });

  it("opens the agent namespace only when a session submode is enabled", () => {
    expect(hostApiAllows({ agent: { session: { auto: true } } }, "agent", "session.run")).toBe(
      true,
    );
    expect(
      hostApiAllows(
        { agent: { session: { fixed: { client_ids: [] } } } },
        "agent",
        "session.create",
      ),
    ).toBe(true);
    expect(
      hostApiAllows(
        { agent: { session: { auto: false, fixed: null } } },
        "agent",
        "session.create",
      ),
    ).toBe(false);
    expect(hostApiAllows({ agent: ["session.create"] }, "agent", "session.create")).toBe(true);
  });

  it("opens credentials with a non-empty provider list", () => {
    expect(hostApiAllows({ credentials: ["google"] }, "credentials", "get_token")).toBe(true);
    expect(hostApiAllows({ credentials: [] }, "credentials", "get_token")).toBe(false);
  });
});

describe("toolAllowed", () => {
  const manifest = {
    required_executas: [{ tool_id: "a" }, "b"],
    optional_executas: [{ tool_id: "c" }],
  };

  it("allows any declared executa when host_api.tools is absent", () => {
    expect(toolAllowed(manifest, "a")).toBe(true);
    expect(toolAllowed(manifest, "c")).toBe(true);
    expect(toolAllowed(manifest, "z")).toBe(false);
  });

  it("narrows to the refs when host_api.tools is given", () => {
    const narrowed = { ...manifest, ui: { host_api: { tools: ["required:*"] } } };
    expect(toolAllowed(narrowed, "b")).toBe(true);
    expect(toolAllowed(narrowed, "c")).toBe(false);
  });
});
