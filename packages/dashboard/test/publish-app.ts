// Puts apps in a test Nexus's store the way a developer and an admin do over the public API
// (create, listing, a version, submit for review, approve with publish), with PATs from the
// device flow.
import { createHash } from "node:crypto";
import { crc32, deflateSync } from "node:zlib";
import type { TestNexus } from "../../cli/test/account/nexus-server.js";

export interface Publisher {
  /** Creates the app with one version and submits it; `publish` has an admin release it. */
  app(opts: AppSpec): Promise<number>;
  /**
   * A public tool executa in the Executa Hub (draft, commit, publish, which freezes 1.0.0), as
   * the published CLI makes one; resolves with its tool id, for an app's `required_executas`.
   * `credentials` is the manifest's `credentials[]`, as the publish form copies it.
   */
  tool(slug: string, name: string, credentials?: Record<string, unknown>[]): Promise<string>;
}

export interface AppSpec {
  slug: string;
  name: string;
  tagline: string;
  category: string;
  description: string;
  manifest: Record<string, unknown>;
  /** Approve and publish (true) or leave it waiting in the review queue (false). */
  publish: boolean;
  /** Upload a logo and one screenshot (real PNGs) onto the listing. */
  images?: boolean;
  /** A UI bundle for the version (path → text), uploaded before the review; entry `index.html`. */
  bundle?: Record<string, string>;
}

const BUNDLE_TYPES: Record<string, string> = {
  html: "text/html; charset=utf-8",
  js: "application/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
};

/** The version's UI bundle through init, one multipart POST per file, and finalize, as the CLI does. */
async function uploadBundle(
  nexus: TestNexus,
  pat: string,
  base: string,
  files: Record<string, string>,
): Promise<void> {
  const entries = Object.entries(files).map(([rel, text]) => {
    const body = Buffer.from(text);
    const type = BUNDLE_TYPES[rel.split(".").at(-1) ?? ""] ?? "application/octet-stream";
    return { rel, body, type, sha256: createHash("sha256").update(body).digest("hex") };
  });
  await call(nexus, pat, "POST", `${base}/bundle/init`, {
    file_map: Object.fromEntries(
      entries.map((e) => [
        e.rel,
        { sha256: e.sha256, byte_size: e.body.length, content_type: e.type },
      ]),
    ),
    bundle_format: "static-spa",
    entry_path: "index.html",
  });
  for (const e of entries) {
    const form = new FormData();
    // The field before the file: the server sizes the file's cap from it.
    form.append("relative_path", e.rel);
    form.append("file", new Blob([new Uint8Array(e.body)], { type: e.type }), e.rel);
    const res = await fetch(`${nexus.url}/api/v1${base}/bundle/file`, {
      method: "POST",
      headers: { authorization: `Bearer ${pat}` },
      body: form,
    });
    if (res.status !== 201)
      throw new Error(`bundle file ${e.rel}: ${res.status} ${await res.text()}`);
  }
  await call(nexus, pat, "POST", `${base}/bundle/finalize`, {});
}

/** A real PNG of one colour: what a browser decodes, so a test can see the image load. */
export function solidPng(width: number, height: number, rgb: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(4);
    head.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([head, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array(width).fill(rgb).flat())]);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from("89504e470d0a1a0a", "hex"),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(pixels)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** POSTs one image as multipart `file`, as the CLI's listing sync does; returns the JSON. */
async function uploadImage(nexus: TestNexus, pat: string, p: string, png: Buffer) {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(png)], { type: "image/png" }), "image.png");
  const res = await fetch(`${nexus.url}/api/v1${p}`, {
    method: "POST",
    headers: { authorization: `Bearer ${pat}` },
    body: form,
  });
  const text = await res.text();
  if (res.status !== 201) throw new Error(`POST ${p} answered ${res.status}: ${text}`);
  return JSON.parse(text) as Record<string, string>;
}

async function call(
  nexus: TestNexus,
  pat: string,
  method: string,
  p: string,
  body?: unknown,
): Promise<Record<string, unknown>> {
  const res = await fetch(`${nexus.url}/api/v1${p}`, {
    method,
    headers: { authorization: `Bearer ${pat}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${p} answered ${res.status}: ${text}`);
  return text === "" ? {} : (JSON.parse(text) as Record<string, unknown>);
}

/** A developer (`devEmail`, handle set) and an admin, both signed up, with their PATs. */
export async function publisher(
  nexus: TestNexus,
  devEmail: string,
  adminEmail: string,
): Promise<Publisher & { devPat: string }> {
  const devCookie = await nexus.signup(devEmail);
  await nexus.makeDeveloper(devEmail);
  const { pat: devPat } = await nexus.devicePat(devCookie);
  await call(nexus, devPat, "PUT", "/developer/profile/handle", { handle: "acme" });
  const adminCookie = await nexus.signup(adminEmail);
  await nexus.makeAdmin(adminEmail);
  const { pat: adminPat } = await nexus.devicePat(adminCookie);
  return {
    devPat,
    async tool(slug, name, credentials) {
      const draft = await call(nexus, devPat, "POST", "/executas/my/drafts", {
        name,
        executa_type: "tool",
        slug,
        payload: {},
      });
      const tool = await call(
        nexus,
        devPat,
        "POST",
        `/executas/my/drafts/${String(draft.id)}/commit`,
        {
          payload: {
            description: `${name}, for tests`,
            version: "1.0.0",
            distribution_type: "uv",
            package_name: slug,
            ...(credentials === undefined ? {} : { credentials }),
          },
        },
      );
      await call(nexus, devPat, "POST", `/executas/my/tools/${String(tool.executa_id)}/publish`);
      return tool.tool_id as string;
    },
    async app(spec) {
      const created = await call(nexus, devPat, "POST", "/developer/apps", {
        slug: spec.slug,
        name: spec.name,
        tagline: spec.tagline,
        category: spec.category,
        description: spec.description,
      });
      const id = created.id as number;
      if (spec.images) {
        const base = `/developer/apps/${id}`;
        await uploadImage(nexus, devPat, `${base}/logo`, solidPng(64, 64, [59, 59, 179]));
        const shot = await uploadImage(
          nexus,
          devPat,
          `${base}/screenshots`,
          solidPng(480, 300, [220, 230, 250]),
        );
        await call(nexus, devPat, "PATCH", base, { screenshots: [shot.screenshot_url] });
      }
      const version = await call(nexus, devPat, "POST", `/developer/apps/${id}/versions`, {
        version: "1.0.0",
        manifest: spec.manifest,
      });
      if (spec.bundle) {
        const base = `/developer/apps/${id}/versions/${String(version.id)}`;
        await uploadBundle(nexus, devPat, base, spec.bundle);
      }
      await call(nexus, devPat, "POST", `/developer/apps/${id}/submit-review`);
      if (spec.publish) {
        await call(nexus, adminPat, "POST", `/super-admin/apps/${id}/approve`, { publish: true });
      }
      return id;
    },
  };
}
