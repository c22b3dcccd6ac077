import { describe, expect, it } from "vitest";
import {
  HOST_API_ERROR_CODES,
  HOST_API_HTTP_STATUS,
  HTTP_LAYER_ERROR_CODES,
  httpStatusOf,
} from "../../src/host-api/index.js";

describe("the code → HTTP status table", () => {
  it("has a status for every code of both catalogs, and nothing else", () => {
    expect(Object.keys(HOST_API_HTTP_STATUS).sort()).toEqual(
      [...HOST_API_ERROR_CODES, ...HTTP_LAYER_ERROR_CODES].sort(),
    );
    for (const status of Object.values(HOST_API_HTTP_STATUS)) {
      expect(status).toBeGreaterThanOrEqual(400);
      expect(status).toBeLessThan(600);
    }
  });

  it("answers the statuses the windows REST routes always did, and 400 for an unknown code", () => {
    expect(httpStatusOf("not_found")).toBe(404);
    expect(httpStatusOf("invalid_arg")).toBe(400);
    expect(httpStatusOf("permission_denied")).toBe(403);
    expect(httpStatusOf("state_too_large")).toBe(413);
    expect(httpStatusOf("no_such_code")).toBe(400);
    expect(httpStatusOf("toString")).toBe(400);
  });
});
