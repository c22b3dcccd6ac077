// Settings: the person's signed-in browsers (end one, or every other), the way to their
// connected accounts (/settings/authorizations), and for admins what this server runs with
// (models per purpose, editable in the model settings form; quota and registry switches,
// read-only, changed in the deployment).
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, seg } from "../api/client";
import { useMe } from "../api/session";
import { ErrorNote, formatDate, Loading, PageTitle } from "../components/status";
import { ModelSettingsForm } from "./model-settings-form";
import { Link } from "../router";

interface SessionRow {
  id: number;
  created_at: string;
  expires_at: string;
  current: boolean;
}

interface ServerSettings {
  llm: Record<string, { provider: string; model: string | null }> | null;
  offline: boolean;
  quota: { tokens_per_user: number | null; images_per_user: number | null; window_hours: number };
  registry: {
    release_review: boolean;
    self_serve_developer: boolean;
    developer_terms_version: string;
  };
  change: string;
}

const SESSIONS_KEY = ["me", "sessions"] as const;

export function SettingsPage() {
  const me = useMe();
  return (
    <section>
      <PageTitle>Settings</PageTitle>
      <section aria-labelledby="settings-accounts">
        <h2 id="settings-accounts">Connected accounts</h2>
        <p>
          Accounts (Google, X, …) whose tokens your plugins receive:{" "}
          <Link to="/settings/authorizations">manage connected accounts</Link>.
        </p>
      </section>
      <Sessions />
      {me.data?.is_admin && <Server />}
    </section>
  );
}

function Sessions() {
  const client = useQueryClient();
  const sessions = useQuery({
    queryKey: SESSIONS_KEY,
    queryFn: () => api<{ sessions: SessionRow[] }>("GET", "/auth/sessions"),
  });
  const refresh = () => client.invalidateQueries({ queryKey: SESSIONS_KEY });
  const revoke = useMutation({
    mutationFn: (id: number) => api("DELETE", `/auth/sessions/${seg(id)}`),
    onSuccess: refresh,
  });
  const others = useMutation({
    mutationFn: () => api<{ revoked: number }>("POST", "/auth/sessions/revoke-others"),
    onSuccess: refresh,
  });
  return (
    <section aria-labelledby="settings-sessions">
      <h2 id="settings-sessions">Signed-in browsers</h2>
      {sessions.isPending ? (
        <Loading what="your sessions" />
      ) : sessions.error ? (
        <ErrorNote error={sessions.error} />
      ) : (
        <>
          <table>
            <caption className="visually-hidden">Active sessions</caption>
            <thead>
              <tr>
                <th scope="col">Signed in</th>
                <th scope="col">Ends</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {sessions.data.sessions.map((s) => (
                <tr key={s.id}>
                  <th scope="row">
                    {formatDate(s.created_at)}{" "}
                    {s.current && <span className="badge">this one</span>}
                  </th>
                  <td>{formatDate(s.expires_at)}</td>
                  <td>
                    {!s.current && (
                      <button
                        type="button"
                        className="danger"
                        disabled={revoke.isPending}
                        aria-label={`Sign out the session of ${formatDate(s.created_at)}`}
                        onClick={() => revoke.mutate(s.id)}
                      >
                        Sign out
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <button
            type="button"
            disabled={others.isPending || sessions.data.sessions.length < 2}
            onClick={() => others.mutate()}
          >
            Sign out everywhere else
          </button>
          {others.isSuccess && (
            <p role="status">
              Signed out {others.data.revoked} other{" "}
              {others.data.revoked === 1 ? "session" : "sessions"}.
            </p>
          )}
        </>
      )}
      <ErrorNote error={revoke.error ?? others.error} />
    </section>
  );
}

function Server() {
  const settings = useQuery({
    queryKey: ["admin", "settings"],
    queryFn: () => api<ServerSettings>("GET", "/super-admin/settings"),
  });
  if (settings.isPending) return <Loading what="the server settings" />;
  if (settings.error) return <ErrorNote error={settings.error} />;
  const s = settings.data;
  const cap = (n: number | null, what: string) =>
    n === null ? "no cap" : `${n.toLocaleString("en")} ${what}`;
  return (
    <section aria-labelledby="settings-server">
      <h2 id="settings-server">This server</h2>
      {s.offline && (
        <p role="status">
          The offline model answers every call: no real model is configured. Pick a provider below
          (openai, anthropic, or openai-compatible for Ollama, vLLM, llama.cpp), test it and save.
        </p>
      )}
      {s.llm === null ? (
        <p>The LLM gateway is not configured on this server.</p>
      ) : (
        <table>
          <caption>Models</caption>
          <thead>
            <tr>
              <th scope="col">Purpose</th>
              <th scope="col">Provider</th>
              <th scope="col">Model</th>
            </tr>
          </thead>
          <tbody>
            {Object.entries(s.llm).map(([purpose, m]) => (
              <tr key={purpose}>
                <th scope="row">{purpose}</th>
                <td>{m.provider}</td>
                <td>{m.model ?? "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <ModelSettingsForm />
      <p>
        {s.quota.tokens_per_user === null && s.quota.images_per_user === null
          ? "No quota: people use the models without a cap."
          : `Quota per person per ${s.quota.window_hours} h: ${cap(s.quota.tokens_per_user, "tokens")}, ${cap(s.quota.images_per_user, "images")}.`}
      </p>
      <p>
        New versions of live apps {s.registry.release_review ? "wait for" : "skip"} release review.
        Developer access is {s.registry.self_serve_developer ? "self-serve" : "granted by admins"}{" "}
        (Developer Terms {s.registry.developer_terms_version}).
      </p>
      <p className="muted">{s.change.charAt(0).toUpperCase() + s.change.slice(1)}.</p>
    </section>
  );
}
