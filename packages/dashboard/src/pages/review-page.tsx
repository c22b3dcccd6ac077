// The admins' review queue: pending submissions oldest first; approve (releasing the candidate
// version or not) or reject with the reason the developer reads in their console. Each
// submission opens onto its findings, requested access and manifest diff (review-details.tsx).
// Below them, new versions of live apps waiting for release review (release-queue.tsx).
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { api, seg } from "../api/client";
import type { ReviewQueueItem, ReviewQueuePage } from "../api/types";
import { ErrorNote, formatDate, Loading, PageTitle } from "../components/status";
import { ReleaseQueue } from "./release-queue";
import { ReviewDetails } from "./review-details";

const QUEUE_KEY = ["review", "queue"] as const;

export function ReviewPage() {
  const queue = useQuery({
    queryKey: QUEUE_KEY,
    queryFn: () => api<ReviewQueuePage>("GET", "/super-admin/apps/review-queue?page_size=100"),
  });
  return (
    <section>
      <PageTitle>Review queue</PageTitle>
      <ErrorNote error={queue.error} />
      {queue.isPending ? (
        <Loading what="the queue" />
      ) : queue.data?.items.length === 0 ? (
        <p role="status">Nothing waits for review.</p>
      ) : (
        <ul className="cards single" aria-label="Submissions">
          {queue.data?.items.map((item) => (
            <Submission key={item.review_id} item={item} />
          ))}
        </ul>
      )}
      <ReleaseQueue />
    </section>
  );
}

function Submission({ item }: { item: ReviewQueueItem }) {
  const client = useQueryClient();
  const [reason, setReason] = useState("");
  const done = () =>
    Promise.all([
      client.invalidateQueries({ queryKey: QUEUE_KEY }),
      client.invalidateQueries({ queryKey: ["store"] }),
    ]);
  const decide = useMutation({
    mutationFn: (d: { what: "approve"; publish: boolean } | { what: "reject" }) =>
      d.what === "approve"
        ? api("POST", `/super-admin/apps/${seg(item.app_id)}/approve`, { publish: d.publish })
        : api("POST", `/super-admin/apps/${seg(item.app_id)}/reject`, { reason }),
    onSuccess: done,
  });
  const onReject = (e: FormEvent) => {
    e.preventDefault();
    decide.mutate({ what: "reject" });
  };
  const reasonId = `reject-reason-${item.review_id}`;
  return (
    <li className="card column">
      <h2>
        {item.name} <span className="muted">v{item.version ?? "?"}</span>
      </h2>
      <p className="meta">
        {item.handle ? `@${item.handle}/` : ""}
        {item.slug} · {item.status} · submitted {formatDate(item.submitted_at)}
      </p>
      <ReviewDetails appId={item.app_id} />
      <div className="actions">
        <button
          type="button"
          className="primary"
          disabled={decide.isPending}
          onClick={() => decide.mutate({ what: "approve", publish: true })}
        >
          Approve and publish
        </button>
        <button
          type="button"
          disabled={decide.isPending}
          onClick={() => decide.mutate({ what: "approve", publish: false })}
        >
          Approve only
        </button>
      </div>
      <form className="toolbar" onSubmit={onReject}>
        <label htmlFor={reasonId}>Reason to reject</label>
        <input
          id={reasonId}
          required
          maxLength={4000}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
        />
        <button type="submit" className="danger" disabled={decide.isPending}>
          Reject
        </button>
      </form>
      <ErrorNote error={decide.error} />
    </li>
  );
}
