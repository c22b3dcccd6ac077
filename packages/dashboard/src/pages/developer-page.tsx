// The Developer Console: the developer handle, the person's apps with their status, versions and
// the reviewer's notes, their developer tokens (list, create, revoke), and their model usage
// against this server's quota.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { api, seg } from "../api/client";
import { ME_KEY, useMe } from "../api/session";
import { createToken } from "../api/tokens";
import type { DevToken, DeveloperApp, DeveloperVersion, Me } from "../api/types";
import { ErrorNote, formatDate, Loading, PageTitle } from "../components/status";
import { ActivationCard } from "./activation-card";
import { UsagePanel } from "./usage-panel";

export function DeveloperPage() {
  const me = useMe();
  if (!me.data) return <Loading what="your account" />;
  return (
    <section>
      <PageTitle>Developer Console</PageTitle>
      <HandleForm me={me.data} />
      <DeveloperApps me={me.data} />
      <Tokens />
      <UsagePanel />
    </section>
  );
}

function HandleForm({ me }: { me: Me }) {
  const client = useQueryClient();
  const [handle, setHandle] = useState(me.developer_handle ?? "");
  const save = useMutation({
    mutationFn: () => api<{ handle: string }>("PUT", "/developer/profile/handle", { handle }),
    onSuccess: () => client.invalidateQueries({ queryKey: ME_KEY }),
  });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  return (
    <section aria-labelledby="dev-profile">
      <h2 id="dev-profile">Profile</h2>
      {me.is_verified_developer ? <p>You are a verified developer.</p> : <ActivationCard me={me} />}
      <form className="toolbar" onSubmit={onSubmit}>
        <label htmlFor="dev-handle">Handle</label>
        <input
          id="dev-handle"
          value={handle}
          maxLength={64}
          autoComplete="off"
          onChange={(e) => setHandle(e.target.value)}
        />
        <button type="submit" disabled={save.isPending}>
          Save handle
        </button>
      </form>
      {save.isSuccess && <p role="status">Handle saved as @{save.data.handle}.</p>}
      <ErrorNote error={save.error} />
    </section>
  );
}

function DeveloperApps({ me }: { me: Me }) {
  const apps = useQuery({
    queryKey: ["developer", "apps"],
    queryFn: () => api<DeveloperApp[]>("GET", "/developer/apps"),
    enabled: me.is_verified_developer,
  });
  return (
    <section aria-labelledby="dev-apps">
      <h2 id="dev-apps">Your apps in the registry</h2>
      {!me.is_verified_developer ? (
        <p className="muted">Publishing apps needs a verified developer account.</p>
      ) : apps.isPending ? (
        <Loading what="your apps" />
      ) : apps.error ? (
        <ErrorNote error={apps.error} />
      ) : apps.data.length === 0 ? (
        <p>
          No apps yet. Publish one with <code>anna-app publish</code>.
        </p>
      ) : (
        <table>
          <caption className="visually-hidden">Your apps</caption>
          <thead>
            <tr>
              <th scope="col">App</th>
              <th scope="col">Status</th>
              <th scope="col">Latest</th>
              <th scope="col">Versions</th>
              <th scope="col">Reviewer’s notes</th>
            </tr>
          </thead>
          <tbody>
            {apps.data.map((app) => (
              <tr key={app.id}>
                <th scope="row">
                  {app.name} <span className="muted">({app.slug})</span>
                </th>
                <td>
                  <span className={`badge status-${app.status.toLowerCase()}`}>{app.status}</span>
                </td>
                <td>{app.latest_version ?? "—"}</td>
                <td>
                  <Versions appId={app.id} />
                </td>
                <td>
                  {app.review_message ?? "—"}
                  {app.reviewed_at && (
                    <div className="muted">reviewed {formatDate(app.reviewed_at)}</div>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function Versions({ appId }: { appId: number }) {
  const versions = useQuery({
    queryKey: ["developer", "apps", appId, "versions"],
    queryFn: () => api<DeveloperVersion[]>("GET", `/developer/apps/${seg(appId)}/versions`),
  });
  if (versions.isPending) return <span className="muted">…</span>;
  if (versions.error) return <ErrorNote error={versions.error} />;
  if (versions.data.length === 0) return <span>none</span>;
  return (
    <ul className="plain">
      {versions.data.map((v) => (
        <li key={v.id}>
          v{v.version} {v.published_at ? "released" : "not released"}
          {v.is_latest && " (live)"}
        </li>
      ))}
    </ul>
  );
}

function Tokens() {
  const client = useQueryClient();
  const tokens = useQuery({
    queryKey: ["developer", "tokens"],
    queryFn: () => api<{ tokens: DevToken[] }>("GET", "/anna-apps/dev/tokens"),
  });
  const refresh = () => client.invalidateQueries({ queryKey: ["developer", "tokens"] });
  const create = useMutation({ mutationFn: createToken, onSuccess: refresh });
  const revoke = useMutation({
    mutationFn: (id: number) => api("POST", `/anna-apps/dev/tokens/${seg(id)}/revoke`),
    onSuccess: refresh,
  });
  return (
    <section aria-labelledby="dev-tokens">
      <h2 id="dev-tokens">Developer tokens</h2>
      <p className="muted">
        Tokens let the <code>anna-app</code> CLI act for you. <code>anna-app login</code> makes one
        too.
      </p>
      <button type="button" disabled={create.isPending} onClick={() => create.mutate()}>
        Create token
      </button>
      {create.data && (
        <div className="secret" role="status">
          <label htmlFor="new-token">New token (shown once; copy it now)</label>
          <input
            id="new-token"
            readOnly
            value={create.data.pat}
            onFocus={(e) => e.target.select()}
          />
        </div>
      )}
      <ErrorNote error={create.error ?? revoke.error} />
      {tokens.isPending ? (
        <Loading what="tokens" />
      ) : tokens.error ? (
        <ErrorNote error={tokens.error} />
      ) : tokens.data.tokens.length === 0 ? (
        <p>No active tokens.</p>
      ) : (
        <table>
          <caption className="visually-hidden">Active tokens</caption>
          <thead>
            <tr>
              <th scope="col">Label</th>
              <th scope="col">Scopes</th>
              <th scope="col">Created</th>
              <th scope="col">Expires</th>
              <th scope="col">Last used</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {tokens.data.tokens.map((t) => (
              <tr key={t.id}>
                <th scope="row">{t.label ?? `token ${t.id}`}</th>
                <td>{t.scopes.join(", ")}</td>
                <td>{formatDate(t.created_at)}</td>
                <td>{formatDate(t.expires_at)}</td>
                <td>{formatDate(t.last_used_at)}</td>
                <td>
                  <button
                    type="button"
                    className="danger"
                    disabled={revoke.isPending}
                    aria-label={`Revoke token ${t.id}`}
                    onClick={() => revoke.mutate(t.id)}
                  >
                    Revoke
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
