// One executa's credential form in My apps: each declared field says "set" or "not set", takes
// a new value (a password input for sensitive ones) and can be cleared. Values go to the server
// and are never read back: the page only ever learns which fields are set.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { api, seg } from "../api/client";
import type { ExecutaCredentials, MyExecuta } from "../api/types";
import { ErrorNote } from "../components/status";

export function ExecutaCredentialsForm({ executa }: { executa: MyExecuta }) {
  const client = useQueryClient();
  const path = `/me/executas/${seg(executa.tool_id)}/credentials`;
  const key = ["me", "executas", executa.tool_id, "credentials"];
  const view = useQuery({ queryKey: key, queryFn: () => api<ExecutaCredentials>("GET", path) });
  // Typed values live only in this form until saved; saving empties them.
  const [typed, setTyped] = useState<Record<string, string>>({});
  const write = useMutation({
    mutationFn: (change: { values: Record<string, string | null> } | "clear") =>
      change === "clear"
        ? api<ExecutaCredentials>("DELETE", path)
        : api<ExecutaCredentials>("PUT", path, change),
    onSuccess: (next) => {
      client.setQueryData(key, next);
      setTyped({});
    },
  });

  const fields = view.data?.credentials ?? [];
  if (view.isPending || (fields.length === 0 && !view.error)) return null;
  const entered = Object.fromEntries(Object.entries(typed).filter(([, v]) => v !== ""));
  const save = (e: FormEvent) => {
    e.preventDefault();
    if (Object.keys(entered).length > 0) write.mutate({ values: entered });
  };
  const label = executa.name || executa.tool_id;

  return (
    <form className="credentials" aria-label={`Credentials of ${label}`} onSubmit={save}>
      <h3>{label}</h3>
      {fields.map((f) => {
        const id = `cred-${executa.tool_id}-${f.name}`;
        return (
          <div key={f.name} className="field">
            <label htmlFor={id}>
              {f.display_name}
              {f.required && " (required)"}
            </label>
            <input
              id={id}
              type={f.sensitive ? "password" : "text"}
              autoComplete="off"
              placeholder={f.is_set ? "set — type to replace" : (f.default ?? "")}
              value={typed[f.name] ?? ""}
              onChange={(e) => setTyped({ ...typed, [f.name]: e.target.value })}
            />
            <span className="meta" aria-label={`${f.display_name} status`}>
              {f.is_set ? "set" : "not set"}
            </span>
            {f.is_set && (
              <button
                type="button"
                disabled={write.isPending}
                aria-label={`Clear ${f.display_name}`}
                onClick={() => write.mutate({ values: { [f.name]: null } })}
              >
                Clear
              </button>
            )}
            {f.description && <p className="muted">{f.description}</p>}
          </div>
        );
      })}
      <div className="actions">
        <button type="submit" disabled={write.isPending || Object.keys(entered).length === 0}>
          Save credentials
        </button>
        <button
          type="button"
          className="danger"
          disabled={write.isPending || !fields.some((f) => f.is_set)}
          onClick={() => write.mutate("clear")}
        >
          Clear all
        </button>
      </div>
      <ErrorNote error={view.error ?? write.error} />
    </form>
  );
}
