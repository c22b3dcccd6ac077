// One app of the store: its listing, screenshots, versions, bundled tools and — before the
// Install button — what it may do, in words. Install and the rest need a signed-in person.
import { useQuery } from "@tanstack/react-query";
import { api, seg } from "../api/client";
import { useInstallAction } from "../api/installs";
import { useMe } from "../api/session";
import type { AppDetail } from "../api/types";
import { AppLogo } from "../components/app-logo";
import { ErrorNote, formatDate, Loading, PageTitle } from "../components/status";
import { describeRequested } from "../permissions";
import { Link } from "../router";

export function AppDetailPage({ slug }: { slug: string }) {
  const detail = useQuery({
    queryKey: ["store", "app", slug],
    queryFn: () => api<AppDetail>("GET", `/store/apps/${seg(slug)}`),
  });
  if (detail.isPending) return <Loading what="the app" />;
  if (detail.error) {
    return (
      <section>
        <PageTitle>App not found</PageTitle>
        <ErrorNote error={detail.error} />
        <Link to="/store">Back to the store</Link>
      </section>
    );
  }
  const app = detail.data;
  const may = describeRequested(app.requested);
  return (
    <article className="detail">
      <header className="detail-head">
        <AppLogo url={app.logo_url} name={app.name} />
        <div>
          <PageTitle>{app.name}</PageTitle>
          <p className="muted">
            {app.ref} · {app.category ?? "uncategorised"} · {app.install_count} installs
          </p>
          {app.tagline && <p>{app.tagline}</p>}
        </div>
      </header>

      <section aria-labelledby="may-do">
        <h2 id="may-do">What this app may do</h2>
        {may.length === 0 ? (
          <p>It asks for no permissions: it only shows its own window.</p>
        ) : (
          <ul className="permissions">
            {may.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        )}
      </section>

      <InstallControls app={app} />

      {app.description && (
        <section aria-labelledby="about">
          <h2 id="about">About</h2>
          <p className="prose">{app.description}</p>
        </section>
      )}

      {app.screenshots.length > 0 && (
        <section aria-labelledby="screenshots">
          <h2 id="screenshots">Screenshots</h2>
          <div className="screenshots">
            {app.screenshots.map((url, i) => (
              <img key={url} src={url} alt={`${app.name} screenshot ${i + 1}`} loading="lazy" />
            ))}
          </div>
        </section>
      )}

      <section aria-labelledby="tools">
        <h2 id="tools">Bundled tools</h2>
        {app.bundled_tools.length === 0 ? (
          <p>None.</p>
        ) : (
          <ul>
            {app.bundled_tools.map((t) => (
              <li key={t.tool_id}>
                <strong>{t.name ?? t.tool_id}</strong> {t.version && `v${t.version}`}{" "}
                {t.required ? "(required)" : "(optional)"}
                {!t.available && " — not available on this server"}
                {t.description && <div className="muted">{t.description}</div>}
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="versions">
        <h2 id="versions">Versions</h2>
        <ul>
          {app.versions.map((v) => (
            <li key={v.id}>
              <strong>v{v.version}</strong>
              {v.is_latest && " (latest)"} — {formatDate(v.published_at)}
              {v.changelog && <div className="muted">{v.changelog}</div>}
            </li>
          ))}
        </ul>
      </section>

      {(app.homepage_url || app.support_url || app.privacy_url) && (
        <p className="links">
          {app.homepage_url && <ExternalLink href={app.homepage_url}>Homepage</ExternalLink>}
          {app.support_url && <ExternalLink href={app.support_url}>Support</ExternalLink>}
          {app.privacy_url && <ExternalLink href={app.privacy_url}>Privacy policy</ExternalLink>}
        </p>
      )}
    </article>
  );
}

function ExternalLink({ href, children }: { href: string; children: string }) {
  // Listing URLs are the developer's; only http(s) ones become links.
  if (!/^https?:\/\//i.test(href)) return null;
  return (
    <a href={href} rel="noopener noreferrer" target="_blank">
      {children}
    </a>
  );
}

function InstallControls({ app }: { app: AppDetail }) {
  const me = useMe();
  const action = useInstallAction(app.slug);
  if (!me.data) {
    return (
      <p>
        <Link to={`/signin?next=${encodeURIComponent(`/store/${app.slug}`)}`}>Sign in</Link> to
        install {app.name}.
      </p>
    );
  }
  const v = app.viewer;
  const busy = action.isPending;
  return (
    <div className="actions" aria-live="polite">
      {v.installed ? (
        <>
          <p role="status">
            Installed v{v.installed_version}
            {v.enabled === false && ", disabled"}.
          </p>
          {v.update_available && (
            <button type="button" disabled={busy} onClick={() => action.mutate("install")}>
              Update to v{app.latest_version}
            </button>
          )}
          <button
            type="button"
            disabled={busy}
            onClick={() => action.mutate(v.enabled === false ? "enable" : "disable")}
          >
            {v.enabled === false ? "Enable" : "Disable"}
          </button>
          <button
            type="button"
            className="danger"
            disabled={busy}
            onClick={() => action.mutate("uninstall")}
          >
            Uninstall
          </button>
        </>
      ) : (
        <button
          type="button"
          className="primary"
          disabled={busy || !app.installable}
          onClick={() => action.mutate("install")}
        >
          {app.installable ? `Install ${app.name}` : "Not installable"}
        </button>
      )}
      <ErrorNote error={action.error} />
    </div>
  );
}
