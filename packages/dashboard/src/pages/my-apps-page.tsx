// The apps the signed-in person installed, with Open (its window beside the chat), update when a
// newer version is live, enable/disable and uninstall in place, and the credentials (API keys) their plugins declare.
import { useQuery } from "@tanstack/react-query";
import { api } from "../api/client";
import { useInstallAction } from "../api/installs";
import type { MyApp, MyExecuta } from "../api/types";
import { AppLogo } from "../components/app-logo";
import { ErrorNote, Loading, PageTitle } from "../components/status";
import { Link } from "../router";
import { ExecutaCredentialsForm } from "./executa-credentials-form";
import { useOpenAppWindow } from "../windows/open-window";

export function MyAppsPage() {
  const apps = useQuery({
    queryKey: ["me", "apps"],
    queryFn: () => api<MyApp[]>("GET", "/me/apps"),
  });
  return (
    <section>
      <PageTitle>My apps</PageTitle>
      <ErrorNote error={apps.error} />
      {apps.isPending ? (
        <Loading what="your apps" />
      ) : apps.data?.length === 0 ? (
        <p>
          You have not installed any app yet. <Link to="/store">Browse the App Store</Link>.
        </p>
      ) : (
        <ul className="cards" aria-label="Installed apps">
          {apps.data?.map((app) => (
            <MyAppRow key={app.id} app={app} />
          ))}
        </ul>
      )}
      <PluginCredentials />
    </section>
  );
}

/** The person's executas; each that declares credentials shows its form (the rest nothing). */
function PluginCredentials() {
  const executas = useQuery({
    queryKey: ["me", "executas"],
    queryFn: () => api<MyExecuta[]>("GET", "/me/executas"),
  });
  if (!executas.data?.length) return <ErrorNote error={executas.error} />;
  return (
    <section aria-label="Plugin credentials">
      <h2>Plugin credentials</h2>
      <p className="muted">
        API keys your apps&apos; plugins ask for. They are stored encrypted and passed to the plugin
        on each call; nobody, you included, can read them back here.
      </p>
      {executas.data.map((e) => (
        <ExecutaCredentialsForm key={e.tool_id} executa={e} />
      ))}
    </section>
  );
}

function MyAppRow({ app }: { app: MyApp }) {
  const action = useInstallAction(app.slug);
  const open = useOpenAppWindow();
  const busy = action.isPending;
  return (
    <li className="card">
      <AppLogo url={app.logo_url} name={app.name} />
      <div>
        <h2>
          <Link to={`/store/${encodeURIComponent(app.slug)}`}>{app.name}</Link>
        </h2>
        <p className="meta">
          v{app.installed_version}
          {app.update_available && ` (v${app.latest_version} available)`} ·{" "}
          {app.enabled ? "enabled" : "disabled"}
          {app.status === "ARCHIVED" && " · archived by its developer"}
        </p>
        <div className="actions">
          {app.enabled && (
            <button
              type="button"
              className="primary"
              disabled={busy || open.isPending}
              aria-label={`Open ${app.name}`}
              onClick={() => open.mutate({ appId: app.id })}
            >
              Open
            </button>
          )}
          {app.update_available && (
            // Installing again moves the install to the latest version (the store's update).
            <button
              type="button"
              disabled={busy}
              aria-label={`Update ${app.name}`}
              onClick={() => action.mutate("install")}
            >
              Update to v{app.latest_version}
            </button>
          )}
          <button
            type="button"
            disabled={busy}
            aria-label={`${app.enabled ? "Disable" : "Enable"} ${app.name}`}
            onClick={() => action.mutate(app.enabled ? "disable" : "enable")}
          >
            {app.enabled ? "Disable" : "Enable"}
          </button>
          <button
            type="button"
            className="danger"
            disabled={busy}
            aria-label={`Uninstall ${app.name}`}
            onClick={() => action.mutate("uninstall")}
          >
            Uninstall
          </button>
        </div>
        <ErrorNote error={action.error ?? open.error} />
      </div>
    </li>
  );
}
