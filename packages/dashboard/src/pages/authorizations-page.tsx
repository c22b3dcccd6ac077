// Settings → Connected accounts (/settings/authorizations): the OAuth providers this server's
// operator configured, a Connect per provider (a full-page navigation into the provider's
// sign-in, which comes back here with `?connected=` or `?error=&message=`), and the person's
// accounts with their default and a disconnect. Plugins that declare one of a provider's
// credential names receive the default account's token; no token is ever shown here.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ApiError, api, seg } from "../api/client";
import { ErrorNote, formatDate, Loading, PageTitle } from "../components/status";
import { Link, useLocation } from "../router";

interface ConnectedAccount {
  provider: string;
  account_id: string;
  email: string | null;
  label: string | null;
  is_default: boolean;
  status: string;
  scopes: string[];
  connected_at: string;
}

interface ProviderAccounts {
  id: string;
  name: string;
  scopes: string[];
  credential_names: string[];
  accounts: ConnectedAccount[];
}

const MY_KEY = ["platform-credentials", "my"] as const;

export function AuthorizationsPage() {
  const my = useQuery({
    queryKey: MY_KEY,
    queryFn: () => api<{ providers: ProviderAccounts[] }>("GET", "/platform-credentials/my"),
  });
  const disabled = my.error instanceof ApiError && my.error.status === 503;
  return (
    <section>
      <PageTitle>Connected accounts</PageTitle>
      <p>
        <Link to="/settings">Back to Settings</Link>
      </p>
      <p>
        Connect an account once and every plugin that asks for it receives a short-lived token at
        run time, never shown to the model. You can connect several accounts of one provider; the
        default one is what plugins get unless they ask for another.
      </p>
      <Outcome />
      {my.isPending ? (
        <Loading what="your connected accounts" />
      ) : disabled || my.data?.providers.length === 0 ? (
        <p role="status">
          No account provider is configured on this server. The operator adds one with
          ANNA_OAUTH_PROVIDERS (google, twitter, or any OAuth2 provider) and restarts.
        </p>
      ) : my.error ? (
        <ErrorNote error={my.error} />
      ) : (
        my.data.providers.map((p) => <Provider key={p.id} provider={p} />)
      )}
    </section>
  );
}

/** What the provider's callback said, from the query it redirected here with. */
function Outcome() {
  const { search } = useLocation();
  const connected = search.get("connected");
  const error = search.get("error");
  if (connected !== null) {
    return (
      <p role="status" className="ok">
        Connected {search.get("provider") ?? "the account"} account {connected}.
      </p>
    );
  }
  if (error !== null) {
    return (
      <p role="alert" className="error">
        Not connected: {search.get("message") ?? error}
      </p>
    );
  }
  return null;
}

function Provider({ provider }: { provider: ProviderAccounts }) {
  const [picked, setPicked] = useState<string[]>(provider.scopes);
  const connectHref =
    `/api/v1/platform-credentials/oauth/${seg(provider.id)}/authorize` +
    (picked.length === provider.scopes.length || picked.length === 0
      ? ""
      : `?scope=${encodeURIComponent(picked.join(" "))}`);
  const headingId = `provider-${provider.id}`;
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>{provider.name}</h2>
      {provider.credential_names.length > 0 && (
        <p className="muted">
          Plugins asking for {provider.credential_names.join(", ")} receive this provider's token.
        </p>
      )}
      {provider.scopes.length > 0 && (
        <fieldset>
          <legend>Access to grant</legend>
          {provider.scopes.map((scope) => (
            <label key={scope}>
              <input
                type="checkbox"
                checked={picked.includes(scope)}
                onChange={(e) =>
                  setPicked((now) =>
                    e.target.checked
                      ? provider.scopes.filter((s) => s === scope || now.includes(s))
                      : now.filter((s) => s !== scope),
                  )
                }
              />{" "}
              {scope}
            </label>
          ))}
        </fieldset>
      )}
      <p>
        <a className="button" href={connectHref}>
          Connect {provider.accounts.length === 0 ? "" : "another "}
          {provider.name} account
        </a>
      </p>
      {provider.accounts.length === 0 ? (
        <p>No {provider.name} account connected.</p>
      ) : (
        <Accounts provider={provider} />
      )}
    </section>
  );
}

function Accounts({ provider }: { provider: ProviderAccounts }) {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: MY_KEY });
  const path = (a: ConnectedAccount) =>
    `/platform-credentials/my/${seg(provider.id)}/accounts/${seg(a.account_id)}`;
  const makeDefault = useMutation({
    mutationFn: (a: ConnectedAccount) => api("PUT", `${path(a)}/default`),
    onSuccess: refresh,
  });
  const disconnect = useMutation({
    mutationFn: (a: ConnectedAccount) => api("DELETE", path(a)),
    onSuccess: refresh,
  });
  const busy = makeDefault.isPending || disconnect.isPending;
  return (
    <>
      <table>
        <caption className="visually-hidden">{provider.name} accounts</caption>
        <thead>
          <tr>
            <th scope="col">Account</th>
            <th scope="col">Access</th>
            <th scope="col">Connected</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {provider.accounts.map((a) => {
            const name = a.label ?? a.email ?? a.account_id;
            return (
              <tr key={a.account_id}>
                <th scope="row">
                  {name}
                  {a.email !== null && a.email !== name && (
                    <span className="muted"> {a.email}</span>
                  )}{" "}
                  {a.is_default && <span className="badge">default</span>}{" "}
                  {a.status !== "active" && (
                    <span className="badge danger">needs reconnecting</span>
                  )}
                </th>
                <td>{a.scopes.join(" ") || "—"}</td>
                <td>{formatDate(a.connected_at)}</td>
                <td>
                  {!a.is_default && (
                    <button
                      type="button"
                      disabled={busy}
                      aria-label={`Make ${name} the default ${provider.name} account`}
                      onClick={() => makeDefault.mutate(a)}
                    >
                      Make default
                    </button>
                  )}{" "}
                  <button
                    type="button"
                    className="danger"
                    disabled={busy}
                    aria-label={`Disconnect ${name}`}
                    onClick={() => disconnect.mutate(a)}
                  >
                    Disconnect
                  </button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <ErrorNote error={makeDefault.error ?? disconnect.error} />
    </>
  );
}
