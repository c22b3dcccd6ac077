// What a reviewer reads before deciding (`GET /super-admin/apps/{id}/review`): what the version
// asks for that the live one did not, the tools it bundles and requires, its bundle, the
// pre-review findings, and the manifest diff against the live version. Loaded when opened.
import { useQuery } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { api, seg } from "../api/client";
import { ErrorNote, Loading } from "../components/status";

interface Finding {
  check: string;
  severity: "error" | "warning" | "info";
  message: string;
  path?: string;
}

interface ReviewerView {
  live: { version: string } | null;
  manifest_diff: {
    added: { path: string; value: unknown }[];
    removed: { path: string; value: unknown }[];
    changed: { path: string; from: unknown; to: unknown }[];
  };
  tools: {
    required: string[];
    optional: string[];
    bundled: { handle: string; tool_id: string }[];
  } | null;
  requested: {
    host_api_namespaces: string[];
    permissions: string[];
    new_host_api_namespaces: string[];
    new_permissions: string[];
  };
  bundle: { file_count: number; total_size_bytes: number; external_origins: unknown } | null;
  checks: { counts: Record<Finding["severity"], number>; findings: Finding[] };
}

/** Values in the diff are JSON, cut so one huge prompt does not bury the rest. */
const MAX_VALUE_CHARS = 400;
function show(value: unknown): string {
  const text = JSON.stringify(value) ?? "undefined";
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS)}…` : text;
}

const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`;

const list = (items: readonly string[]) => (items.length === 0 ? "none" : items.join(", "));

export function ReviewDetails({ appId }: { appId: number }) {
  const [open, setOpen] = useState(false);
  return (
    <details onToggle={(e) => setOpen((e.target as HTMLDetailsElement).open)}>
      <summary>Findings, requested access and manifest diff</summary>
      {open && <DetailsBody appId={appId} />}
    </details>
  );
}

function DetailsBody({ appId }: { appId: number }) {
  const view = useQuery({
    queryKey: ["review", "app", appId],
    queryFn: () => api<ReviewerView>("GET", `/super-admin/apps/${seg(appId)}/review`),
  });
  if (view.isPending) return <Loading what="the submission" />;
  if (view.error) return <ErrorNote error={view.error} />;
  const v = view.data;
  const diff = v.manifest_diff;
  const { counts, findings } = v.checks;
  return (
    <div className="column">
      <h3>Pre-review checks</h3>
      <p>
        {plural(counts.error, "error")}, {plural(counts.warning, "warning")},{" "}
        {plural(counts.info, "note")}.
      </p>
      {findings.length > 0 && (
        <ul aria-label="Findings">
          {findings.map((f, i) => (
            <li key={i}>
              <strong className={f.severity === "error" ? "error" : undefined}>{f.severity}</strong>{" "}
              {f.check}
              {f.path ? <code> {f.path}</code> : null}: {f.message}
            </li>
          ))}
        </ul>
      )}
      <h3>Requested access</h3>
      <p>
        Host API: {list(v.requested.host_api_namespaces)}. Permissions:{" "}
        {list(v.requested.permissions)}.
      </p>
      {(v.requested.new_host_api_namespaces.length > 0 ||
        v.requested.new_permissions.length > 0) && (
        <p className="error">
          New since {v.live ? `v${v.live.version}` : "nothing (first submission)"}: Host API{" "}
          {list(v.requested.new_host_api_namespaces)}; permissions{" "}
          {list(v.requested.new_permissions)}.
        </p>
      )}
      {v.tools && (
        <p>
          Tools required: {list(v.tools.required)}; optional: {list(v.tools.optional)}; bundled:{" "}
          {list(v.tools.bundled.map((b) => `${b.handle} → ${b.tool_id}`))}.
        </p>
      )}
      <p>
        {v.bundle
          ? `Bundle: ${v.bundle.file_count} files, ${Math.ceil(v.bundle.total_size_bytes / 1024)} KiB; external origins ${show(v.bundle.external_origins)}.`
          : "No UI bundle."}
      </p>
      <h3>Manifest diff {v.live ? `against live v${v.live.version}` : "(first submission)"}</h3>
      {diff.added.length + diff.removed.length + diff.changed.length === 0 ? (
        <p>No change to the manifest.</p>
      ) : (
        <div className="scroll-x diff">
          <table>
            <caption className="visually-hidden">Manifest changes</caption>
            <thead>
              <tr>
                <th scope="col">Change</th>
                <th scope="col">Path</th>
                <th scope="col">Value</th>
              </tr>
            </thead>
            <tbody>
              {diff.added.map((d) => (
                <DiffRow key={`a${d.path}`} change="added" path={d.path}>
                  <code>{show(d.value)}</code>
                </DiffRow>
              ))}
              {diff.removed.map((d) => (
                <DiffRow key={`r${d.path}`} change="removed" path={d.path}>
                  <code>{show(d.value)}</code>
                </DiffRow>
              ))}
              {diff.changed.map((d) => (
                <DiffRow key={`c${d.path}`} change="changed" path={d.path}>
                  <code>{show(d.from)}</code> → <code>{show(d.to)}</code>
                </DiffRow>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

/** One row of the manifest diff: what changed, where, and the value (or from → to). */
function DiffRow({
  change,
  path,
  children,
}: {
  change: string;
  path: string;
  children: ReactNode;
}) {
  return (
    <tr>
      <td>{change}</td>
      <th scope="row">
        <code>{path}</code>
      </th>
      <td>{children}</td>
    </tr>
  );
}
