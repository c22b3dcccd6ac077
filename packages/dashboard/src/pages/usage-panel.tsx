// The person's LLM usage in the quota's window (`GET /api/v1/me/usage`): tokens against the
// cap, and per app and purpose. Without the gateway on the server the panel says so.
import { useQuery } from "@tanstack/react-query";
import { api } from "../api/client";
import { ErrorNote, Loading } from "../components/status";

interface UsageTotals {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  images: number;
  calls: number;
}

interface Usage {
  window: { hours: number; since: string };
  quota: { tokens: number | null; images: number | null };
  used: UsageTotals;
  remaining: { tokens: number | null; images: number | null };
  by_app: (UsageTotals & { app_id: string; purpose: string })[];
}

const n = (v: number) => v.toLocaleString("en");

export function UsagePanel() {
  const usage = useQuery({
    queryKey: ["me", "usage"],
    queryFn: () => api<Usage>("GET", "/me/usage"),
  });
  return (
    <section aria-labelledby="dev-usage">
      <h2 id="dev-usage">Model usage</h2>
      {usage.isPending ? (
        <Loading what="usage" />
      ) : usage.error ? (
        <ErrorNote error={usage.error} />
      ) : (
        <UsageBody usage={usage.data} />
      )}
    </section>
  );
}

function UsageBody({ usage }: { usage: Usage }) {
  const { used, quota, window } = usage;
  const hours = window.hours === 1 ? "hour" : `${n(window.hours)} hours`;
  return (
    <>
      <p>
        {quota.tokens === null
          ? `${n(used.total_tokens)} tokens in the last ${hours} (no cap on this server).`
          : `${n(used.total_tokens)} of ${n(quota.tokens)} tokens in the last ${hours}.`}{" "}
        {quota.images !== null && `${n(used.images)} of ${n(quota.images)} images.`}
      </p>
      {quota.tokens !== null && (
        <meter
          aria-label="Tokens used of the cap"
          min={0}
          max={quota.tokens}
          high={quota.tokens * 0.8}
          value={Math.min(used.total_tokens, quota.tokens)}
        />
      )}
      {usage.by_app.length === 0 ? (
        <p className="muted">No model calls in this window.</p>
      ) : (
        <table>
          <caption className="visually-hidden">Usage per app and purpose</caption>
          <thead>
            <tr>
              <th scope="col">App</th>
              <th scope="col">Purpose</th>
              <th scope="col">Calls</th>
              <th scope="col">Tokens in</th>
              <th scope="col">Tokens out</th>
              <th scope="col">Images</th>
            </tr>
          </thead>
          <tbody>
            {usage.by_app.map((line) => (
              <tr key={`${line.app_id}\u0000${line.purpose}`}>
                <th scope="row">{line.app_id === "" ? "Chat (no app)" : line.app_id}</th>
                <td>{line.purpose}</td>
                <td>{n(line.calls)}</td>
                <td>{n(line.input_tokens)}</td>
                <td>{n(line.output_tokens)}</td>
                <td>{n(line.images)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
