import { describe, expect, it } from "vitest";
import {
  HostUploadParamsSchema,
  HostUploadResultSchema,
  uploadExpectedBytes,
  type HostUploadNegotiateParams,
} from "../../src/executa/upload.js";

describe("host/uploadFile", () => {
  it("discriminates the three modes", () => {
    const inline = HostUploadParamsSchema.parse({
      mode: "inline",
      filename: "a.png",
      mime_type: "image/png",
      content_b64: "aGk=",
      purpose: "image_input",
    });
    expect(inline.mode).toBe("inline");
    const confirm = HostUploadParamsSchema.parse({
      mode: "confirm",
      r2_key: "exec-uploads/dev/u/t/i/p/x",
    });
    expect(confirm.mode).toBe("confirm");
  });

  it("reads expected_bytes or the SDK's size_bytes on negotiate", () => {
    const wire = HostUploadParamsSchema.parse({
      mode: "negotiate",
      filename: "a",
      mime_type: "text/plain",
      expected_bytes: 10,
    }) as HostUploadNegotiateParams;
    const sdk = HostUploadParamsSchema.parse({
      mode: "negotiate",
      filename: "a",
      mime_type: "text/plain",
      size_bytes: 20,
    }) as HostUploadNegotiateParams;
    expect(uploadExpectedBytes(wire)).toBe(10);
    expect(uploadExpectedBytes(sdk)).toBe(20);
  });

  it("leaves an unknown purpose to the service (-32206, not -32203)", () => {
    expect(
      HostUploadParamsSchema.safeParse({
        mode: "inline",
        filename: "a",
        mime_type: "text/plain",
        content_b64: "",
        purpose: "avatar",
      }).success,
    ).toBe(true);
  });

  it.each([
    ["an unknown mode", { mode: "stream", filename: "a" }],
    ["inline without a filename", { mode: "inline", mime_type: "text/plain", content_b64: "" }],
    ["inline without content", { mode: "inline", filename: "a", mime_type: "text/plain" }],
    ["confirm without r2_key", { mode: "confirm" }],
    ["no mode", { filename: "a", mime_type: "text/plain", content_b64: "" }],
  ])("rejects %s", (_label, params) => {
    expect(HostUploadParamsSchema.safeParse(params).success).toBe(false);
  });

  it("describes both the file envelope and the negotiate result", () => {
    const envelope = {
      r2_key: "k",
      download_url: "https://d",
      url: "https://d",
      mime_type: "image/png",
      size_bytes: 3,
      bytes: 3,
      expires_at: "2026-01-01T00:00:00Z",
      expires_in: 1800,
      _meta: { mode: "inline" },
    };
    expect(HostUploadResultSchema.safeParse(envelope).success).toBe(true);
    const negotiate = {
      r2_key: "k",
      put_url: "https://p",
      headers: { "Content-Type": "image/png" },
      expires_at: "2026-01-01T00:00:00Z",
      expires_in: 300,
      _meta: { mode: "presigned-put" },
    };
    expect(HostUploadResultSchema.safeParse(negotiate).success).toBe(true);
    const { url: _url, ...withoutAlias } = envelope;
    expect(HostUploadResultSchema.safeParse(withoutAlias).success).toBe(false);
  });
});
