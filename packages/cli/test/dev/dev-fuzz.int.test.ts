// Random requests over the harness's routes, through real HTTP: whatever the method, path,
// escapes, headers and body, the answer is a 2xx–4xx with a JSON error code, never a 500, and the
// harness is still serving afterwards. Bounded in count (FUZZ_RUNS) and seeded per run by
// fast-check; a failure prints its seed and the shrunk request.
import { request } from "node:http";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SDK_ROUTE, type DevServer } from "../../src/dev/dev-server.js";
import type { Logger } from "@anna-ai/jsonrpc";
import { scaffoldTestApp, SLUG, startHarness, tokenOf } from "./helpers.js";

const FUZZ_RUNS = 500;
const RUNTIME = "/api/v1/anna-apps/runtime";

interface FuzzRequest {
  method: string;
  path: string;
  host: "own" | "localhost" | "foreign";
  contentType: string | undefined;
  origin: string | undefined;
  body: string | undefined;
}

function send(server: DevServer, r: FuzzRequest): Promise<{ status: number; body: string }> {
  const host =
    r.host === "own"
      ? `127.0.0.1:${server.port}`
      : r.host === "localhost"
        ? `localhost:${server.port}`
        : `evil.example:${server.port}`;
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port: server.port,
        method: r.method,
        path: r.path,
        setHost: false,
        headers: {
          host,
          "x-anna-app-token": tokenOf(server),
          ...(r.contentType === undefined ? {} : { "content-type": r.contentType }),
          ...(r.origin === undefined ? {} : { origin: r.origin }),
          // Framed: node sends a GET's body unframed, which the server reads as a next request.
          ...(r.body === undefined ? {} : { "content-length": Buffer.byteLength(r.body) }),
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        const done = () => {
          resolve({ status: res.statusCode ?? 0, body: text });
          req.destroy();
        };
        res.on("data", (chunk: string) => {
          text += chunk;
          // An event stream never ends: its first chunk is the answer.
          if (String(res.headers["content-type"]).startsWith("text/event-stream")) done();
        });
        res.on("end", done);
      },
    );
    req.on("error", reject);
    req.end(r.body);
  });
}

/** Characters a request line may carry unescaped, `%` among them. */
const pathChar = fc.constantFrom(
  ..."abcz09-._~%/?=&:@!$'()*+,;".split(""),
  "%2",
  "%zz",
  "%ff",
  "%e0%a4",
  "..",
  "%00",
);
const junk = fc.array(pathChar, { maxLength: 24 }).map((parts) => parts.join(""));

function requests(server: DevServer): fc.Arbitrary<FuzzRequest> {
  const wid = server.window.window_uuid;
  const prefixes = [
    "/",
    "/dev/",
    "/dev/api/state",
    "/dev/api/events",
    "/dev/api/fixtures",
    "/dev/api/fixtures/replay",
    "/dev/api/report",
    "/dev/stream",
    `${RUNTIME}/rpc`,
    `${RUNTIME}/events/stream`,
    `${RUNTIME}/windows`,
    `${RUNTIME}/windows/`,
    `${RUNTIME}/windows/${wid}`,
    `/anna-apps/${SLUG}/dev/`,
    `/anna-apps/${SLUG}/dev/index.html`,
    SDK_ROUTE,
  ];
  const envelope = fc.record(
    {
      id: fc.oneof(fc.string(), fc.integer(), fc.jsonValue()),
      window_uuid: fc.oneof(fc.constant(wid), fc.string()),
      ns: fc.constantFrom("storage", "window", "tools", "chat", "files", "llm", "nope", ""),
      method: fc.constantFrom("get", "set", "hello", "invoke", "list", "patch", "x"),
      args: fc.jsonValue(),
      kind: fc.constantFrom("ping", "title_changed", "entry_payload", "auth.refresh", "x"),
      payload: fc.jsonValue(),
      file: fc.string(),
      view: fc.oneof(fc.constant("main"), fc.string()),
      title: fc.jsonValue(),
      geometry: fc.jsonValue(),
      status: fc.jsonValue(),
      runtime_state_patch: fc.jsonValue(),
    },
    { requiredKeys: [] },
  );
  const body = fc.oneof(
    envelope.map((value) => JSON.stringify(value)),
    fc.jsonValue().map((value) => JSON.stringify(value)),
    fc.string(),
    fc.integer({ min: 1, max: 5_000 }).map((depth) => "[".repeat(depth) + "]".repeat(depth)),
    fc
      .integer({ min: 1, max: 400 })
      .map((depth) => '{"a":'.repeat(depth) + "1" + "}".repeat(depth)),
    fc.constant('{"id":1,"args":"\\ud800"}'),
    fc.constant(""),
  );
  return fc
    .record({
      method: fc.constantFrom("GET", "POST", "PATCH", "DELETE", "PUT", "HEAD", "OPTIONS"),
      path: fc.tuple(fc.constantFrom(...prefixes), junk).map(([a, b]) => a + b),
      host: fc.constantFrom("own", "own", "own", "localhost", "foreign"),
      contentType: fc.option(
        fc.constantFrom(
          "application/json",
          "text/plain",
          "application/x-www-form-urlencoded",
          "multipart/form-data",
          "application/json; charset=latin1",
          "",
        ),
      ),
      // Mostly none (a script) or the dashboard's own: a foreign one is refused before the routes.
      origin: fc.constantFrom(
        undefined,
        undefined,
        undefined,
        server.url.replace(/\/$/, ""),
        "null",
        "http://evil.example",
      ),
      body: fc.option(body),
    })
    .map((r) => ({
      ...r,
      contentType: r.contentType ?? undefined,
      body: r.body ?? undefined,
    }));
}

describe("anna-app dev under random requests", () => {
  it(`answers ${FUZZ_RUNS} random requests without a 500 and keeps serving`, async () => {
    const failures: string[] = [];
    const noop = () => undefined;
    const logger: Logger = {
      debug: noop,
      info: noop,
      warn: noop,
      error: (message, fields) => failures.push(`${message} ${JSON.stringify(fields)}`),
    };
    const server = await startHarness(await scaffoldTestApp(), { logger });
    await fc.assert(
      fc.asyncProperty(requests(server), async (r) => {
        const answer = await send(server, r);
        expect({ request: r, status: answer.status }).toMatchObject({ status: expect.any(Number) });
        expect(answer.status, `${r.method} ${r.path}: ${answer.body.slice(0, 300)}`).toBeLessThan(
          500,
        );
        expect(answer.status).toBeGreaterThanOrEqual(200);
        if (answer.status >= 400 && r.method !== "HEAD") {
          expect(answer.body, `${answer.status} ${r.method} ${r.path}`).toMatch(/^\{/);
          expect(JSON.parse(answer.body)).toMatchObject({
            ok: false,
            error: { code: expect.any(String) },
          });
        }
      }),
      { numRuns: FUZZ_RUNS },
    );
    expect(failures).toEqual([]);
    const state = await fetch(`${server.url}dev/api/state`);
    expect(state.status).toBe(200);
  });
});
