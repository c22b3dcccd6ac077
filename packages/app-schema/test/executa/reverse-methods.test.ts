import { describe, expect, it } from "vitest";
import {
  AGENT_ERRORS,
  EMBEDDINGS_ERRORS,
  IMAGE_ERRORS,
  SAMPLING_ERRORS,
  STORAGE_ERRORS,
  UPLOAD_ERRORS,
  WEB_ERRORS,
} from "../../src/errors/index.js";
import { HOST_CAPABILITIES, isHostCapability } from "../../src/executa/host-capabilities.js";
import {
  REVERSE_FAMILY_CAPABILITIES,
  REVERSE_METHOD_FAMILY,
  REVERSE_METHOD_REQUIREMENTS,
  isReverseMethod,
  reverseGateError,
  type ReverseMethod,
} from "../../src/executa/reverse-methods.js";
import { REVERSE_METHOD_SCHEMAS } from "../../src/executa/reverse-schemas.js";

const ALL = (capabilities: string[]) => ({
  negotiated: {
    sampling: {},
    agent: {},
    storage: {},
    image: {},
    "image.edit": {},
    upload: {},
    embeddings: {},
  },
  hostCapabilities: capabilities,
});

describe("reverse methods", () => {
  it("maps every reverse method to its family", () => {
    expect(REVERSE_METHOD_FAMILY["sampling/createMessage"]).toBe("sampling");
    expect(REVERSE_METHOD_FAMILY["storage/get"]).toBe("storage");
    expect(REVERSE_METHOD_FAMILY["files/upload_begin"]).toBe("files");
    expect(REVERSE_METHOD_FAMILY["agent/session.run"]).toBe("agent");
    expect(REVERSE_METHOD_FAMILY["agent/complete"]).toBe("agent");
    expect(REVERSE_METHOD_FAMILY["image/edit"]).toBe("image");
    expect(REVERSE_METHOD_FAMILY["host/uploadFile"]).toBe("upload");
    expect(REVERSE_METHOD_FAMILY["embeddings/create"]).toBe("embeddings");
    expect(REVERSE_METHOD_FAMILY["credentials/getToken"]).toBe("credentials");
    expect(REVERSE_METHOD_FAMILY["web/image_fetch"]).toBe("web");
    expect(isReverseMethod("invoke")).toBe(false);
    expect(isReverseMethod("toString")).toBe(false);
    expect(Object.keys(REVERSE_METHOD_REQUIREMENTS).sort()).toEqual(
      Object.keys(REVERSE_METHOD_FAMILY).sort(),
    );
  });

  it("only requires capability strings that are on the allow-list", () => {
    for (const requirement of Object.values(REVERSE_METHOD_REQUIREMENTS)) {
      for (const capability of requirement.hostCapabilities)
        expect(isHostCapability(capability), capability).toBe(true);
    }
    expect(HOST_CAPABILITIES).toContain("llm.agent.fixed");
    expect(HOST_CAPABILITIES).toHaveLength(21);
  });

  it("summarises what each family needs", () => {
    expect(REVERSE_FAMILY_CAPABILITIES.image).toEqual({
      negotiated: ["image", "image.edit"],
      hostCapabilities: ["llm.image", "llm.image.edit"],
    });
    expect(REVERSE_FAMILY_CAPABILITIES.files.hostCapabilities).toEqual(["aps.files"]);
  });

  it.each([
    ["sampling/createMessage", SAMPLING_ERRORS.NOT_NEGOTIATED],
    ["image/generate", IMAGE_ERRORS.NOT_NEGOTIATED],
    ["host/uploadFile", UPLOAD_ERRORS.NOT_NEGOTIATED],
    ["embeddings/create", EMBEDDINGS_ERRORS.NOT_NEGOTIATED],
    ["storage/set", STORAGE_ERRORS.NOT_GRANTED],
    ["files/list", STORAGE_ERRORS.NOT_GRANTED],
    ["agent/session.create", AGENT_ERRORS.NOT_GRANTED],
    ["web/search", WEB_ERRORS.NOT_NEGOTIATED],
  ] as const)("answers an undeclared %s with %o (H13)", (method, expected) => {
    expect(reverseGateError(method as ReverseMethod, ALL([]))).toBe(expected);
  });

  it("answers a v1.1 plugin with the not-negotiated error", () => {
    expect(
      reverseGateError("sampling/createMessage", {
        negotiated: undefined,
        hostCapabilities: ["llm.sample"],
      }),
    ).toBe(SAMPLING_ERRORS.NOT_NEGOTIATED);
  });

  it("answers a declared but not negotiated family with the not-negotiated error", () => {
    expect(
      reverseGateError("storage/get", {
        negotiated: { sampling: {} },
        hostCapabilities: ["aps.kv"],
      }),
    ).toBe(STORAGE_ERRORS.NOT_GRANTED);
  });

  it("lets calls through when negotiated and declared", () => {
    const declared = ALL([
      "llm.sample",
      "llm.agent.auto",
      "aps.kv",
      "aps.files",
      "llm.image",
      "llm.image.edit",
      "host.upload",
      "llm.embed",
      "web.search",
    ]);
    for (const method of [
      "sampling/createMessage",
      "agent/session.run",
      "agent/complete",
      "storage/list",
      "files/delete",
      "image/edit",
      "host/uploadFile",
      "embeddings/create",
      "credentials/listAccounts",
      "web/search",
    ] as const) {
      expect(reverseGateError(method, declared), method).toBeUndefined();
    }
  });

  it("needs llm.image.edit for image/edit and llm.sample for agent/complete", () => {
    expect(reverseGateError("image/edit", ALL(["llm.image"]))).toBe(IMAGE_ERRORS.NOT_NEGOTIATED);
    expect(reverseGateError("agent/complete", ALL(["llm.agent.auto"]))).toBe(
      AGENT_ERRORS.NOT_GRANTED,
    );
  });

  it("accepts sampling as the negotiated key for embeddings and agent (same token)", () => {
    const onlySampling = {
      negotiated: { sampling: {} },
      hostCapabilities: ["llm.embed", "llm.agent.auto"],
    };
    expect(reverseGateError("embeddings/create", onlySampling)).toBeUndefined();
    expect(reverseGateError("agent/session.create", onlySampling)).toBeUndefined();
  });
});

describe("REVERSE_METHOD_SCHEMAS", () => {
  it("has a params and a result schema for every reverse method", () => {
    expect(Object.keys(REVERSE_METHOD_SCHEMAS).sort()).toEqual(
      Object.keys(REVERSE_METHOD_FAMILY).sort(),
    );
    expect(REVERSE_METHOD_SCHEMAS["storage/get"].params.safeParse({ key: "k" }).success).toBe(true);
    expect(REVERSE_METHOD_SCHEMAS["storage/get"].result.safeParse({ value: 1 }).success).toBe(
      false,
    );
    expect(
      REVERSE_METHOD_SCHEMAS["host/uploadFile"].params.safeParse({ mode: "confirm", r2_key: "k" })
        .success,
    ).toBe(true);
  });
});
