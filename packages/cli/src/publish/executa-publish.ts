// `executa publish` (R172, real-world-cli.md §9.3), the same requests the published CLI sends:
// the identity cache or a mint (E1 draft with the idempotency key, E2 commit), E5/E13 update,
// E6/E14 visibility (`public` with --publish, else `app_bundled` unless already public), E8
// freeze (skills too, at /my/skills/{id}/versions), then E4 and E7 for the result. A dry run reads (E3, E4, E7) but writes
// nothing, neither on the server nor on disk, and returns the writes it would send.
import { createHash } from "node:crypto";
import type { NexusClient } from "../account/nexus-client.js";
import { NexusRequestError } from "../account/nexus-error.js";
import type { UploadProgress, UploadResult } from "./binary-upload.js";
import { pushBinaries } from "./binary-push.js";
import { listExecutas } from "./executa-refs.js";
import { type ExecutaProject, writeBumpedVersion } from "./executa-project.js";
import { clearIdentity, IDENTITY_SCHEMA, readIdentity, writeIdentity } from "./identity-cache.js";

import type { PlannedRequest } from "./request-plan.js";

export type { PlannedRequest };

const MY = "/api/v1/executas/my";

export interface PublishResult {
  host: string;
  executa_id: number | null;
  tool_id: string | null;
  slug: string;
  version: string;
  content_hash: string;
  idempotent_hit: boolean;
  first_publish: boolean;
  published_public: boolean;
  visibility: string;
  latest_version_id: number | null;
  dry_run: boolean;
  /** The binary_artifacts upload (0.1.47: tools with binary_artifacts, before the freeze). */
  binaries: UploadResult | null;
  /** The writes sent (or, in a dry run, that would be sent), in order. */
  plan: PlannedRequest[];
}

export interface PublishOptions {
  client: NexusClient;
  host: string;
  project: ExecutaProject;
  publishPublic: boolean;
  dryRun: boolean;
  /** `--no-write`: keep executa.json and `.anna/executa.json` as they are. */
  noWrite: boolean;
  /**
   * Freeze the version (E8, the default). `apps push` publishes bundled executas without it:
   * a working draft does not pin its dependencies (real-world-cli.md §9.2).
   */
  freeze?: boolean;
  now?: () => Date;
  onProgress?: (p: UploadProgress) => void;
}

interface Detail {
  id: number;
  tool_id: string;
  visibility?: string;
}

const is404 = (e: unknown) => e instanceof NexusRequestError && e.status === 404;

export async function publishExecuta(o: PublishOptions): Promise<PublishResult> {
  const { client, host, project: p } = o;
  const kind = p.type === "skill" ? "skills" : "tools";
  const plan: PlannedRequest[] = [];
  const write = async <T>(req: PlannedRequest, what: string) => {
    plan.push(req);
    if (o.dryRun) return undefined;
    const res = await client.request<T>(req.method, req.path, {
      what,
      ...(req.body === undefined ? {} : { body: req.body }),
    });
    return res;
  };
  const detail = async (id: number) =>
    (await client.get<Detail>(`${MY}/${kind}/${id}/detail`, { what: `reading ${p.slug}` })).body;

  if (!o.dryRun && !o.noWrite && p.bumpedFrom !== undefined) await writeBumpedVersion(p);

  // 1. Identity: the cache when it still answers, else a mint.
  let current: Detail | undefined;
  const cached = await readIdentity(p.dir, host, p.slug);
  if (cached) {
    try {
      current = await detail(cached.executa_id);
    } catch (e) {
      if (!is404(e)) throw e;
      if (!o.dryRun) await clearIdentity(p.dir);
    }
  }
  let firstPublish = false;
  if (!current && o.dryRun) {
    // What the mint would find: the live executa with this slug, if there is one.
    const row = (await listExecutas(client)).find(
      (r) => r.slug === p.slug && (r.executa_type ?? "tool") === p.type,
    );
    if (row) current = row;
  }
  if (!current) {
    firstPublish = true;
    const idempotencyKey = createHash("sha256")
      .update(`${host}|${p.slug}|${p.type}`, "utf8")
      .digest("hex");
    const draftRes = await write<{
      id: number;
      tool_id: string;
      payload?: Record<string, unknown>;
    }>(
      {
        method: "POST",
        path: `${MY}/drafts`,
        body: {
          name: p.name,
          executa_type: p.type,
          slug_override: p.slug,
          idempotency_key: idempotencyKey,
        },
      },
      `creating the draft of ${p.slug}`,
    );
    if (draftRes) {
      const draft = draftRes.body;
      const committed = draft.payload?.committed_executa_id;
      if (draftRes.idempotentHit && draft.id < 0 && typeof committed === "number") {
        // Already committed earlier (a lost cache): reuse it.
        firstPublish = false;
        current = await detail(committed);
      } else {
        const payload = { ...(draft.payload ?? {}), ...commitFields(p) };
        const commit = await write<{ executa_id: number; tool_id: string }>(
          { method: "POST", path: `${MY}/drafts/${draft.id}/commit`, body: { payload } },
          `committing the draft of ${p.slug}`,
        );
        current = await detail(commit!.body.executa_id);
      }
      if (!o.noWrite) {
        await writeIdentity(p.dir, {
          $schema: IDENTITY_SCHEMA,
          host,
          executa_id: current.id,
          tool_id: current.tool_id,
          slug: p.slug,
          executa_type: p.type,
          first_published_at: (o.now?.() ?? new Date()).toISOString(),
        });
      }
    } else {
      plan.push({
        method: "POST",
        path: `${MY}/drafts/{draft_id}/commit`,
        body: { payload: commitFields(p) },
      });
    }
  }
  const idPath = current ? String(current.id) : "{executa_id}";

  // 2. Update the live row.
  await write(
    {
      method: "PUT",
      path: `${MY}/${kind}/${idPath}`,
      body:
        p.type === "skill"
          ? {
              name: p.name,
              description: p.description,
              skill_content: p.skillContent,
              version: p.version,
              skill_execution_mode: p.executionMode,
            }
          : commonFields(p),
    },
    `updating ${p.slug}`,
  );

  // 2b. binary_artifacts go up before the freeze, so the frozen version pins their URLs and
  // sha256 (0.1.47: E5 → B1 → B3 → B4 × N → B5 → E4 …). Skills have none. `apps push` (no E8)
  // uploads them too, unlike 0.1.47: the visibility move below freezes the version on this
  // server (S2), after which other bytes are refused; `apps cut` then finds them `exists`.
  const binaries = await pushBinaries({
    client,
    host,
    project: p,
    toolId: current?.tool_id,
    dryRun: o.dryRun,
    plan,
    ...(o.onProgress ? { onProgress: o.onProgress } : {}),
  });

  // 3. Visibility.
  const before = current?.visibility ?? "private";
  const target = o.publishPublic || before === "public" ? "public" : "app_bundled";
  if (target !== before) {
    await write(
      { method: "POST", path: `${MY}/${kind}/${idPath}/visibility`, body: { visibility: target } },
      `making ${p.slug} ${target}`,
    );
  }

  // 4. Freeze. Tools send the content hash as the published CLI does; skills are frozen too
  // (the published CLI leaves them at the server's first-promotion snapshot).
  const freeze =
    o.freeze === false
      ? undefined
      : await write(
          {
            method: "POST",
            path:
              p.type === "tool"
                ? `${MY}/tools/${idPath}/versions?content_hash=${p.contentHash}`
                : `${MY}/skills/${idPath}/versions`,
            body: { version: p.version },
          },
          `freezing ${p.slug} ${p.version}`,
        );
  const hit = freeze?.idempotentHit ?? false;

  // 5. The result as the server now has it.
  let visibility = target;
  let latestVersionId: number | null = null;
  if (current) {
    if (!o.dryRun) visibility = (await detail(current.id)).visibility ?? target;
    const versions = await client.get<{ id: number }[]>(`${MY}/tools/${current.id}/versions`, {
      what: `listing versions of ${p.slug}`,
      allowStatuses: [404],
    });
    latestVersionId = Array.isArray(versions.body) ? (versions.body[0]?.id ?? null) : null;
  }
  return {
    host,
    executa_id: current?.id ?? null,
    tool_id: current?.tool_id ?? null,
    slug: p.slug,
    version: p.version,
    content_hash: p.contentHash,
    idempotent_hit: hit,
    first_publish: firstPublish,
    published_public: visibility === "public",
    visibility,
    latest_version_id: latestVersionId,
    dry_run: o.dryRun,
    binaries,
    plan,
  };
}

/** E2's payload over the draft's own: the common fields, the type and slug, a skill's body. */
function commitFields(p: ExecutaProject) {
  return {
    ...commonFields(p),
    executa_type: p.type,
    slug: p.slug,
    ...(p.type === "skill"
      ? { skill_content: p.skillContent, execution_mode: p.executionMode }
      : {}),
  };
}

/** name, description, version and the distribution fields, as E2 and E5 carry them. */
function commonFields(p: ExecutaProject) {
  return {
    name: p.name,
    description: p.description,
    version: p.version,
    ...p.distribution,
  };
}
