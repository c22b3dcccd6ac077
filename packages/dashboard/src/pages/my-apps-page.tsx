// The apps the signed-in person installed, with Open (its window beside the chat), enable/disable
// and uninstall in place.
import { useQuery } from "@tanstack/react-query";
import { api } from "../api/client";
import { useInstallAction } from "../api/installs";
import type { MyApp } from "../api/types";
import { AppLogo } from "../components/app-logo";
import { ErrorNote, Loading, PageTitle } from "../components/status";
import { Link } from "../router";
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
