// `--storage mock`: every storage/* and files/* call is answered by the first matching line of
// a mock-answer file (`{"ns":"storage","method":"get","match":{"key":"k"},"result":{…}}`, spec
// L7580–7600). A line's `error` becomes the wire error as written (its `data.errorCode` filled
// from the catalog when missing, H12). A call no line answers fails with -32029 UPSTREAM_ERROR
// naming the file and a line to add: the fixture plays the backend, and the backend had no
// answer (D-host-72).
import { STORAGE_ERRORS } from "@anna-ai/app-schema/errors";
import type { StorageService } from "../storage-service.js";
import { catalogError } from "../service-error.js";
import type { MockFixture } from "./mock-fixture.js";
import { fixtureRpcError } from "./sampling-fixture.js";

/** `data.reason` of the error for a call no fixture line answers. */
export const MOCK_NO_MATCH_REASON = "MOCK_NO_MATCH";

/** The answer of the first matching line for a storage/files wire method. */
export function answerFromFixture(
  fixture: MockFixture,
  wireMethod: string,
  params: unknown,
): Promise<unknown> {
  const entry = fixture.find(wireMethod, params);
  const [ns, method] = wireMethod.split("/") as [string, string];
  if (entry === undefined) {
    const match = matchHint(params);
    return Promise.reject(
      catalogError(
        STORAGE_ERRORS.UPSTREAM_ERROR,
        `mock storage: no line in ${fixture.file} answers ${wireMethod}; add one such as {"ns":"${ns}","method":"${method}","match":${match},"result":{…}}`,
        { reason: MOCK_NO_MATCH_REASON, method: wireMethod, fixture: fixture.file },
      ),
    );
  }
  if (entry.error !== undefined) {
    return Promise.reject(fixtureRpcError(entry.error, "storage"));
  }
  if (entry.result === undefined) {
    return Promise.reject(
      catalogError(
        STORAGE_ERRORS.UPSTREAM_ERROR,
        `mock storage: ${fixture.file}:${entry.line} answers ${wireMethod} with "events"; storage and files lines need "result" or "error"`,
        { reason: MOCK_NO_MATCH_REASON, method: wireMethod, fixture: fixture.file },
      ),
    );
  }
  // A fresh copy per call: a caller mutating one answer must not change the next.
  return Promise.resolve(structuredClone(entry.result));
}

/** `{"key":"…"}` / `{"path":"…"}` from the call, to make the suggested line copy-pasteable. */
function matchHint(params: unknown): string {
  if (params !== null && typeof params === "object") {
    const p = params as Record<string, unknown>;
    for (const field of ["key", "path", "prefix"]) {
      if (typeof p[field] === "string") return JSON.stringify({ [field]: p[field] });
    }
  }
  return "{}";
}

export function createMockStorageService(fixture: MockFixture): StorageService {
  return {
    get: (params) => answerFromFixture(fixture, "storage/get", params),
    set: (params) => answerFromFixture(fixture, "storage/set", params),
    delete: (params) => answerFromFixture(fixture, "storage/delete", params),
    list: (params) => answerFromFixture(fixture, "storage/list", params),
  } as StorageService;
}
