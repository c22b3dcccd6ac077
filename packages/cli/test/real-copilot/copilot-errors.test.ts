// A Nexus's error answers as each family's catalogued codes, with what to do in the message.
import { describe, expect, it } from "vitest";
import { NexusRequestError } from "../../src/account/nexus-error.js";
import { copilotAnswerError, copilotFailure } from "../../src/real-copilot/copilot-errors.js";

const HOST = "http://127.0.0.1:8080";
const answer = (status: number, code: string, message: string, extra = {}) => ({
  host: HOST,
  what: "POST /api/v1/copilot/app/complete",
  status,
  body: { detail: { code, message, ...extra } },
});

describe("copilotAnswerError", () => {
  it("a refused token is NOT_GRANTED naming anna-app login", () => {
    const e = copilotAnswerError("sampling", answer(401, "token_revoked", "the PAT was revoked"));
    expect(e).toMatchObject({ code: -32001, data: { errorCode: "SAMPLING_NOT_GRANTED" } });
    expect(e.message).toMatch(
      /401 token_revoked.*anna-app login --host http:\/\/127\.0\.0\.1:8080/,
    );
  });

  it("the server's quota is each family's QUOTA_EXCEEDED", () => {
    expect(copilotAnswerError("sampling", answer(429, "quota_exceeded", "over"))).toMatchObject({
      code: -32002,
    });
    expect(copilotAnswerError("agent", answer(429, "quota_exceeded", "over"))).toMatchObject({
      code: -32045,
    });
    expect(copilotAnswerError("upload", answer(429, "quota_exceeded", "over")).message).toMatch(
      /wait for the quota window/,
    );
  });

  it("keeps the server's own catalogue code when it belongs to the family", () => {
    const e = copilotAnswerError(
      "sampling",
      answer(400, "validation_failed", "no json_schema", {
        error_code: "SAMPLING_UNSUPPORTED_RESPONSE_FORMAT",
      }),
    );
    expect(e).toMatchObject({ code: -32010 });
  });

  it("a server without a gateway is the provider error, saying whom to ask", () => {
    const e = copilotAnswerError("agent", answer(503, "unavailable", "no LLM gateway"));
    expect(e).toMatchObject({ code: -32046 });
    expect(e.message).toMatch(/ask the operator of http:\/\/127\.0\.0\.1:8080/);
  });

  it("maps ended sessions, too-large files and rejected types", () => {
    expect(copilotAnswerError("agent", answer(410, "APP_SESSION_EXPIRED", "gone"))).toMatchObject({
      code: -32042,
    });
    expect(copilotAnswerError("upload", answer(413, "payload_too_large", "big"))).toMatchObject({
      code: -32204,
    });
    expect(
      copilotAnswerError("upload", answer(415, "unsupported_media_type", "exe")),
    ).toMatchObject({ code: -32205 });
  });
});

describe("copilotFailure", () => {
  it("an unreachable server is the family's unavailable code with the client's message", () => {
    const e = copilotFailure(
      "upload",
      new NexusRequestError(6, `cannot reach ${HOST} (POST …): connection refused`),
    );
    expect(e).toMatchObject({ code: -32207, message: expect.stringMatching(/cannot reach/) });
  });

  it("passes other errors through", () => {
    const other = new Error("x");
    expect(copilotFailure("agent", other)).toBe(other);
  });
});
