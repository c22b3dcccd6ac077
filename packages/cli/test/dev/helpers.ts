// A scaffolded app (`anna-app init`'s minimal template: a Python executa, storage and tools
// grants) or a copy of a fixture app, and a harness on port 0 around it, closed by the test.
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { onTestFinished } from "vitest";
import { startDevServer, type DevServer, type DevServerOptions } from "../../src/dev/dev-server.js";
import { scaffoldApp, type ScaffoldAppResult } from "../../src/init/scaffold-app.js";

export const SLUG = "dev-harness-app";

export async function scaffoldTestApp(): Promise<ScaffoldAppResult> {
  const root = mkdtempSync(path.join(tmpdir(), "anna-dev-"));
  const app = await scaffoldApp({ dir: path.join(root, SLUG), template: "minimal" });
  onTestFinished(() => rmSync(root, { recursive: true, force: true }));
  return app;
}

export async function startHarness(
  app: Pick<ScaffoldAppResult, "dir">,
  options: Partial<DevServerOptions> = {},
): Promise<DevServer> {
  const server = await startDevServer({
    manifestPath: path.join(app.dir, "manifest.json"),
    port: 0,
    watch: false,
    record: false,
    ...options,
  });
  onTestFinished(() => server.close());
  return server;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A GET with the path sent exactly as given (fetch would normalise `..` away). */
export function rawGet(
  server: DevServer,
  rawPath: string,
  headers: Record<string, string> = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port: server.port, path: rawPath, method: "GET", headers },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

/** Any request, with the headers (an `Origin` fetch would not let a test forge) sent as given. */
export function rawRequest(
  server: DevServer,
  method: string,
  rawPath: string,
  headers: Record<string, string> = {},
  body?: unknown,
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const text = body === undefined ? undefined : JSON.stringify(body);
    const req = request(
      {
        host: "127.0.0.1",
        port: server.port,
        path: rawPath,
        method,
        headers: text === undefined ? headers : { "content-type": "text/plain", ...headers },
      },
      (res) => {
        let out = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (out += chunk));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: out }),
        );
      },
    );
    req.on("error", reject);
    req.end(text);
  });
}

/** One Host API call through the rpc endpoint, as the dashboard bridge makes it. */
export async function rpc(
  server: DevServer,
  token: string | undefined,
  ns: string,
  method: string,
  args: unknown = {},
  windowUuid = server.window.window_uuid,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${server.url}api/v1/anna-apps/runtime/rpc`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(token === undefined ? {} : { "X-Anna-App-Token": token }),
    },
    body: JSON.stringify({ id: `c-${ns}.${method}`, window_uuid: windowUuid, ns, method, args }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

export function tokenOf(server: DevServer): string {
  return new URL(server.window.url).searchParams.get("t") as string;
}

const FIXTURES = fileURLToPath(new URL("./fixtures/", import.meta.url));

/** A copy of `fixtures/<name>` in a temp dir (tests edit their bundle), removed after the test. */
export function copyFixtureApp(name: string): { dir: string } {
  const root = mkdtempSync(path.join(tmpdir(), "anna-dev-fixture-"));
  const dir = path.join(root, name);
  cpSync(path.join(FIXTURES, name), dir, { recursive: true });
  onTestFinished(() => rmSync(root, { recursive: true, force: true }));
  return { dir };
}
