// Puts apps in a test Nexus's store the way a developer and an admin do over the public API
// (create, listing, a version, submit for review, approve with publish), with PATs from the
// device flow.
import type { TestNexus } from "../../cli/test/account/nexus-server.js";

export interface Publisher {
  /** Creates the app with one version and submits it; `publish` has an admin release it. */
  app(opts: AppSpec): Promise<number>;
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
    async app(spec) {
      const created = await call(nexus, devPat, "POST", "/developer/apps", {
        slug: spec.slug,
        name: spec.name,
        tagline: spec.tagline,
        category: spec.category,
        description: spec.description,
      });
      const id = created.id as number;
      await call(nexus, devPat, "POST", `/developer/apps/${id}/versions`, {
        version: "1.0.0",
        manifest: spec.manifest,
      });
      await call(nexus, devPat, "POST", `/developer/apps/${id}/submit-review`);
      if (spec.publish) {
        await call(nexus, adminPat, "POST", `/super-admin/apps/${id}/approve`, { publish: true });
      }
      return id;
    },
  };
}
