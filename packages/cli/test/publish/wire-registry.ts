// A stand-in for the app registry endpoints of real-world-cli.md §3 (A1–A24), in memory on
// 127.0.0.1, for checking what our CLI sends byte for byte (paths, query, If-Match, multipart
// fields, bodies) and how it takes each documented answer. It keeps the state the published
// CLI relies on (ids, working revision, content-hash hits, bundle fingerprints, status) and
// forwards everything else (/api/v1/executas/*, /me, …) to a real Nexus, so bundled executas
// are published for real. The real app registry's own tests live with the server.
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { canonicalJson } from "@anna-ai/executa-host/storage";

export interface Seen {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage["headers"];
  json: unknown;
  form?: Record<string, { text?: string; type?: string; name?: string; size?: number }>;
}

interface Version {
  id: number;
  version: string;
  content_hash: string;
  manifest: unknown;
  is_latest: boolean;
  published_at: string | null;
  bundle?: { status: string; sha256_manifest: string };
}

interface App {
  id: number;
  slug: string;
  name: string;
  status: string;
  handle: string;
  versions: Version[];
  working?: {
    revision: number;
    content_hash: string;
    manifest: unknown;
    bundle_status: string;
    dirty: boolean;
  };
  pendingFiles: Map<string, Set<string>>;
  listing: Record<string, unknown>;
}

export interface WireRegistry {
  url: string;
  seen: Seen[];
  apps: Map<number, App>;
  /** Only the app-registry requests, as `METHOD /path` without the query. */
  calls(): string[];
  close(): Promise<void>;
}

const fingerprint = (fileMap: unknown) =>
  createHash("sha256").update(canonicalJson(fileMap)).digest("hex");

export async function wireRegistry(upstream: string): Promise<WireRegistry> {
  const seen: Seen[] = [];
  const apps = new Map<number, App>();
  let nextId = 100;
  const handle = async (req: IncomingMessage, raw: Buffer, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://x");
    const send = (status: number, body?: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { "content-type": "application/json", ...headers });
      res.end(body === undefined ? "" : JSON.stringify(body));
    };
    const isApps =
      url.pathname.startsWith("/api/v1/developer/apps") ||
      /^\/api\/v1\/apps\/\d+\/grants$/.test(url.pathname);
    if (!isApps) {
      const r = await fetch(upstream + req.url, {
        method: req.method,
        headers: Object.fromEntries(
          Object.entries(req.headers).filter(([k]) => k !== "host" && k !== "content-length"),
        ) as Record<string, string>,
        ...(raw.length > 0 ? { body: raw } : {}),
      });
      const text = Buffer.from(await r.arrayBuffer());
      res.writeHead(
        r.status,
        Object.fromEntries(
          [...r.headers].filter(
            ([k]) =>
              k !== "content-encoding" && k !== "content-length" && k !== "transfer-encoding",
          ),
        ),
      );
      res.end(text);
      return;
    }
    const s: Seen = {
      method: req.method ?? "",
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      json: null,
    };
    const type = req.headers["content-type"] ?? "";
    if (type.startsWith("multipart/form-data")) {
      const form = await new Request("http://x", {
        method: "POST",
        headers: { "content-type": type },
        body: raw,
      }).formData();
      s.form = {};
      for (const [k, v] of form) {
        s.form[k] =
          typeof v === "string"
            ? { text: v }
            : { type: v.type, name: v.name, size: v.size, text: await v.text() };
      }
    } else if (raw.length > 0) s.json = JSON.parse(raw.toString("utf8")) as unknown;
    seen.push(s);
    if (req.headers.authorization === undefined) return send(401, { detail: "no token" });
    const body = (s.json ?? {}) as Record<string, unknown>;
    const parts = url.pathname
      .replace(/^\/api\/v1\/(developer\/)?apps\/?/, "")
      .split("/")
      .filter(Boolean);
    const app = parts[0] === undefined ? undefined : apps.get(Number(parts[0]));
    const m = `${req.method} ${parts
      .slice(1)
      .map((p, i) => (i === 1 && parts[1] === "versions" ? "{v}" : p))
      .join("/")}`;
    if (parts.length === 0) {
      if (req.method === "GET") {
        const slug = url.searchParams.get("slug");
        return send(
          200,
          [...apps.values()].filter((a) => slug === null || a.slug === slug).map(view),
        );
      }
      const a: App = {
        id: nextId++,
        slug: String(body.slug),
        name: String(body.name),
        status: "DRAFT",
        handle: "acme",
        versions: [],
        pendingFiles: new Map(),
        listing: {},
      };
      apps.set(a.id, a);
      return send(201, view(a));
    }
    if (!app)
      return send(404, { detail: { code: "app_not_found", message: `no app ${parts[0]}` } });
    const version =
      parts[1] === "versions" && parts[2] !== undefined
        ? app.versions.find((v) => v.id === Number(parts[2]))
        : undefined;
    switch (m) {
      case "GET ":
        return send(200, view(app));
      case "PATCH ":
        if (typeof body.slug === "string") {
          if (app.status !== "DRAFT")
            return send(409, {
              detail: {
                code: "SLUG_FROZEN",
                message: `the slug of a ${app.status} app cannot change`,
              },
            });
          app.slug = body.slug;
        }
        Object.assign(app.listing, body);
        return send(200, view(app));
      case "DELETE ":
        apps.delete(app.id);
        return send(204);
      case "GET grants":
        return send(200, { scopes: ["storage"], quota: { calls_per_day: 1000 } });
      case "GET versions":
        return send(200, [...app.versions].reverse());
      case "POST versions": {
        const hash = url.searchParams.get("content_hash") ?? "";
        const same = app.versions.find((v) => v.version === body.version);
        if (same && same.content_hash === hash)
          return send(200, same, { "x-anna-idempotent": "hit" });
        if (same)
          return send(409, {
            detail: {
              code: "VERSION_EXISTS",
              message: `version ${same.version} exists with other content`,
            },
          });
        const v: Version = {
          id: nextId++,
          version: String(body.version),
          content_hash: hash,
          manifest: body.manifest,
          is_latest: false,
          published_at: null,
        };
        app.versions.push(v);
        return send(201, v);
      }
      case "GET versions/{v}/bundle":
        return version?.bundle ? send(200, version.bundle) : send(404, { detail: "no bundle" });
      case "POST versions/{v}/bundle/init":
      case "POST working/bundle/init": {
        const key = parts[1] === "working" ? "working" : String(parts[2]);
        const map = body.file_map as Record<string, unknown>;
        app.pendingFiles.set(key, new Set());
        (app as unknown as Record<string, unknown>)[`map:${key}`] = map;
        return send(200, {
          files: Object.keys(map).map((p) => ({
            relative_path: p,
            proxy_upload_url: `/upload/${p}`,
          })),
        });
      }
      case "POST versions/{v}/bundle/file":
      case "POST working/bundle/file": {
        const key = parts[1] === "working" ? "working" : String(parts[2]);
        app.pendingFiles.get(key)?.add(String(s.form?.relative_path?.text));
        return send(201);
      }
      case "POST versions/{v}/bundle/finalize":
      case "POST working/bundle/finalize": {
        const key = parts[1] === "working" ? "working" : String(parts[2]);
        const map = (app as unknown as Record<string, Record<string, unknown>>)[`map:${key}`]!;
        const missing = Object.keys(map).filter((p) => !app.pendingFiles.get(key)?.has(p));
        if (missing.length > 0)
          return send(400, {
            detail: { code: "bundle_incomplete", message: `missing ${missing.join(", ")}` },
          });
        if (key === "working") {
          app.working!.bundle_status = "ready";
          return send(200, { file_count: Object.keys(map).length, bundle_status: "ready" });
        }
        version!.bundle = { status: "bundle_ready", sha256_manifest: fingerprint(map) };
        return send(200, {
          status: "bundle_ready",
          file_count: Object.keys(map).length,
          total_size_bytes: 0,
          sha256_manifest: version!.bundle.sha256_manifest,
        });
      }
      case "POST versions/{v}/publish":
        for (const v of app.versions) v.is_latest = v === version;
        version!.published_at = "2026-12-02T00:00:00Z";
        app.status = "PUBLISHED";
        return send(200, {
          id: version!.id,
          version: version!.version,
          is_latest: true,
          published_at: version!.published_at,
        });
      case "PUT working": {
        const ifMatch = req.headers["if-match"];
        if (ifMatch !== undefined && app.working && Number(ifMatch) !== app.working.revision) {
          return send(409, {
            detail: { code: "revision_mismatch", message: `revision is ${app.working.revision}` },
          });
        }
        const hash = String(body.content_hash);
        if (app.working?.content_hash === hash)
          return send(200, {
            revision: app.working.revision,
            content_hash: hash,
            unchanged: true,
            bundle_status: app.working.bundle_status,
          });
        app.working = {
          revision: (app.working?.revision ?? 0) + 1,
          content_hash: hash,
          manifest: body.manifest,
          bundle_status: "pending",
          dirty: true,
        };
        return send(200, {
          revision: app.working.revision,
          content_hash: hash,
          unchanged: false,
          bundle_status: "pending",
        });
      }
      case "GET working":
        return app.working
          ? send(200, { revision: app.working.revision, dirty_vs_latest_cut: app.working.dirty })
          : send(404, { detail: "no draft" });
      case "DELETE working":
        app.working = undefined;
        return send(204);
      case "POST working/cut": {
        if (!app.working)
          return send(422, { detail: { code: "no_working_draft", message: "nothing pushed yet" } });
        if (app.versions.some((v) => v.version === body.version))
          return send(409, { detail: { code: "VERSION_EXISTS", message: "already cut" } });
        const v: Version = {
          id: nextId++,
          version: String(body.version),
          content_hash: app.working.content_hash,
          manifest: app.working.manifest,
          is_latest: false,
          published_at: null,
          bundle: { status: "bundle_ready", sha256_manifest: "x" },
        };
        app.versions.push(v);
        app.working.dirty = false;
        return send(200, {
          version_id: v.id,
          version: v.version,
          frozen_executas: [],
          bundle: null,
        });
      }
      case "POST submit-review":
        if (app.status !== "DRAFT" && app.status !== "REJECTED")
          return send(409, {
            detail: {
              code: "invalid_status",
              message: `app is ${app.status}; only DRAFT or REJECTED apps can be submitted`,
            },
          });
        app.status = "PENDING_REVIEW";
        return send(200, { status: app.status });
      case "POST unpublish":
      case "POST archive":
      case "POST unarchive":
        app.status = {
          "POST unpublish": "APPROVED",
          "POST archive": "ARCHIVED",
          "POST unarchive": "APPROVED",
        }[m];
        return send(200, { status: app.status });
    }
    return send(404, { detail: `no route ${m}` });
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on(
      "end",
      () =>
        void handle(req, Buffer.concat(chunks), res).catch((e: unknown) => {
          res.writeHead(500);
          res.end(String(e));
        }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    apps,
    calls: () => seen.map((q) => `${q.method} ${q.path}`),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function view(a: App) {
  return {
    id: a.id,
    slug: a.slug,
    name: a.name,
    status: a.status,
    handle: a.handle,
    is_published: a.status === "PUBLISHED",
    updated_at: "2026-12-02T00:00:00Z",
  };
}
