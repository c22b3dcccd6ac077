// New versions of live apps that wait for an admin's release review (servers started with
// `--release-review`): `GET /super-admin/apps/release-queue`, approve (the version goes live and
// installs see an update) or reject with the reason the developer reads on the version.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { api, seg } from "../api/client";
import type { ReleaseQueueItem, ReleaseQueuePage } from "../api/types";
import { ErrorNote, formatDate, Loading } from "../components/status";

const RELEASES_KEY = ["review", "releases"] as const;

export function ReleaseQueue() {
  const queue = useQuery({
    queryKey: RELEASES_KEY,
    queryFn: () => api<ReleaseQueuePage>("GET", "/super-admin/apps/release-queue?page_size=100"),
  });
  return (
    <section aria-labelledby="release-queue">
      <h2 id="release-queue">Releases waiting</h2>
      <ErrorNote error={queue.error} />
      {queue.isPending ? (
        <Loading what="the releases" />
      ) : queue.data?.items.length === 0 ? (
        <p role="status">No release waits for review.</p>
      ) : (
        <ul className="cards single" aria-label="Releases">
          {queue.data?.items.map((item) => (
            <Release key={item.version_id} item={item} />
          ))}
        </ul>
      )}
    </section>
  );
}

function changeCount(item: ReleaseQueueItem): number {
  const d = item.manifest_diff;
  return d.added.length + d.removed.length + d.changed.length;
}

function Release({ item }: { item: ReleaseQueueItem }) {
  const client = useQueryClient();
  const [reason, setReason] = useState("");
  const base = `/super-admin/apps/${seg(item.app_id)}/versions/${seg(item.version_id)}`;
  const decide = useMutation({
    mutationFn: (what: "approve" | "reject") =>
      what === "approve"
        ? api("POST", `${base}/approve-release`, {})
        : api("POST", `${base}/reject-release`, { reason }),
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: RELEASES_KEY }),
        client.invalidateQueries({ queryKey: ["store"] }),
      ]),
  });
  const onReject = (e: FormEvent) => {
    e.preventDefault();
    decide.mutate("reject");
  };
  const reasonId = `reject-release-reason-${item.version_id}`;
  const changes = changeCount(item);
  return (
    <li className="card column">
      <h3>
        {item.name} <span className="muted">v{item.version}</span>
      </h3>
      <p className="meta">
        {item.slug} · live {item.live_version ? `v${item.live_version}` : "none"} · requested{" "}
        {item.requested_at ? formatDate(item.requested_at) : "—"} ·{" "}
        {changes === 0
          ? "manifest unchanged"
          : `${changes} manifest change${changes === 1 ? "" : "s"}`}
      </p>
      {item.changelog && <p>{item.changelog}</p>}
      <div className="actions">
        <button
          type="button"
          className="primary"
          disabled={decide.isPending}
          onClick={() => decide.mutate("approve")}
        >
          Approve release
        </button>
      </div>
      <form className="toolbar" onSubmit={onReject}>
        <label htmlFor={reasonId}>Reason to reject the release</label>
        <input
          id={reasonId}
          required
          maxLength={4000}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
        />
        <button type="submit" className="danger" disabled={decide.isPending}>
          Reject release
        </button>
      </form>
      <ErrorNote error={decide.error} />
    </li>
  );
}
