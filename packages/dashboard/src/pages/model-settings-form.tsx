// The admin's model settings (GET/PUT /super-admin/settings/models): provider, base URL, key and
// model for chat and each purpose, "Test connection" that makes one tiny request with what the
// form holds, and the recent changes. A key is write-only: the form says whether one is stored,
// an empty field keeps it, and "Remove the stored key" clears it. Settings the server's
// environment sets are shown disabled with the variable that pins them.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { api } from "../api/client";
import { ErrorNote, Loading } from "../components/status";

type Section = "" | "sampling" | "embeddings" | "images";
type Fields = {
  provider: string;
  baseUrl: string;
  model: string;
  apiKey: string;
  clearKey: boolean;
};

interface ModelSettingsView {
  version: number;
  file: string | null;
  precedence: string;
  effective: Record<string, { provider: string; model: string | null; api_key: string } | number>;
  settings: Record<string, unknown>;
  keys: Record<string, "set" | "unset">;
  pinned: Record<string, string>;
  audit: {
    changed_by: string;
    changed_at: number;
    changes: { setting: string; change: string }[];
  }[];
}

interface TestResult {
  ok: boolean;
  provider: string;
  model: string;
  latency_ms?: number;
  error?: { message: string; hint: string; status?: number };
}

const SECTIONS: readonly { key: Section; title: string; effective: string }[] = [
  { key: "", title: "Chat and agent (the base model)", effective: "chat" },
  { key: "sampling", title: "Plugins' sampling", effective: "sampling" },
  { key: "embeddings", title: "Embeddings", effective: "embeddings" },
  { key: "images", title: "Images", effective: "images" },
];
const PROVIDERS = ["openai", "anthropic", "openai-compatible", "offline"] as const;
const KEY = ["admin", "settings", "models"] as const;

const path = (section: Section, field: string) => (section === "" ? field : `${section}.${field}`);

function fieldsOf(view: ModelSettingsView): Record<Section, Fields> {
  const out = {} as Record<Section, Fields>;
  for (const { key } of SECTIONS) {
    const raw = (key === "" ? view.settings : (view.settings[key] ?? {})) as Record<
      string,
      unknown
    >;
    const str = (v: unknown) => (typeof v === "string" ? v : "");
    out[key] = {
      provider: str(raw["provider"]),
      baseUrl: str(raw["baseUrl"]),
      model: str(raw["model"]),
      apiKey: "",
      clearKey: false,
    };
  }
  return out;
}

/** The admin's layer as the API takes it; untouched keys are left out so the server keeps them. */
function settingsOf(
  fields: Record<Section, Fields>,
  view: ModelSettingsView,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const { key } of SECTIONS) {
    const f = fields[key];
    const own: Record<string, unknown> = {};
    const put = (field: string, value: unknown) => {
      if (!(path(key, field) in view.pinned)) own[field] = value;
    };
    if (f.provider !== "") put("provider", f.provider);
    if (f.baseUrl.trim() !== "") put("baseUrl", f.baseUrl.trim());
    if (f.model.trim() !== "") put("model", f.model.trim());
    if (f.apiKey !== "") put("apiKey", f.apiKey);
    else if (f.clearKey) put("apiKey", null);
    // Everything else the stored layer has (retries, dimensions, …) is kept as it was.
    const stored = (key === "" ? view.settings : (view.settings[key] ?? {})) as Record<
      string,
      unknown
    >;
    const rest = Object.fromEntries(
      Object.entries(stored).filter(
        ([k]) =>
          !["provider", "baseUrl", "model", "apiKey", ...SECTIONS.map((s) => s.key)].includes(k),
      ),
    );
    if (key === "") Object.assign(out, rest, own);
    else if (Object.keys(own).length + Object.keys(rest).length > 0) out[key] = { ...rest, ...own };
  }
  return out;
}

export function ModelSettingsForm() {
  const client = useQueryClient();
  const query = useQuery({
    queryKey: KEY,
    queryFn: () => api<ModelSettingsView>("GET", "/super-admin/settings/models"),
  });
  if (query.isPending) return <Loading what="the model settings" />;
  if (query.error) return <ErrorNote error={query.error} />;
  return (
    <ModelForm
      view={query.data}
      onSaved={(view) => {
        client.setQueryData(KEY, view);
        void client.invalidateQueries({ queryKey: ["admin", "settings"], exact: true });
      }}
    />
  );
}

function ModelForm({
  view,
  onSaved,
}: {
  view: ModelSettingsView;
  onSaved: (view: ModelSettingsView) => void;
}) {
  const [fields, setFields] = useState(() => fieldsOf(view));
  const set = (section: Section, patch: Partial<Fields>) =>
    setFields((all) => ({ ...all, [section]: { ...all[section], ...patch } }));
  const save = useMutation({
    mutationFn: () =>
      api<ModelSettingsView>("PUT", "/super-admin/settings/models", {
        settings: settingsOf(fields, view),
        version: view.version,
      }),
    onSuccess: (saved) => {
      setFields(fieldsOf(saved));
      onSaved(saved);
    },
  });
  const test = useMutation({
    mutationFn: () =>
      api<TestResult>("POST", "/super-admin/settings/models/test", {
        settings: settingsOf(fields, view),
      }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <form aria-labelledby="model-settings" onSubmit={submit}>
      <h3 id="model-settings">Model settings</h3>
      <p className="muted">
        Saved settings apply to the next call, with no restart. The server's environment wins over
        this page ({view.precedence}){view.file ? `; the rest comes from ${view.file}` : ""}. Leave
        a field empty to use the base model's or the default.
      </p>
      {SECTIONS.map(({ key, title, effective }) => {
        const f = fields[key];
        const now = view.effective[effective] as { provider: string; model: string | null };
        const id = (field: string) => `model-${key || "base"}-${field}`;
        const pinnedBy = (field: string) => view.pinned[path(key, field)];
        const note = (field: string) =>
          pinnedBy(field) ? <small> (set by {pinnedBy(field)})</small> : null;
        const keyState = view.keys[path(key, "apiKey")] ?? "unset";
        return (
          <fieldset key={key || "base"}>
            <legend>{title}</legend>
            <p className="muted">
              Now: {now.provider} {now.model ?? "(no model)"}
            </p>
            <label htmlFor={id("provider")}>Provider{note("provider")}</label>
            <select
              id={id("provider")}
              value={f.provider}
              disabled={pinnedBy("provider") !== undefined}
              onChange={(e) => set(key, { provider: e.target.value })}
            >
              <option value="">
                {key === "" ? "not set (offline)" : "same as the base model"}
              </option>
              {PROVIDERS.map((p) => (
                <option key={p} value={p}>
                  {p}
                </option>
              ))}
            </select>
            <label htmlFor={id("baseUrl")}>Base URL{note("baseUrl")}</label>
            <input
              id={id("baseUrl")}
              type="url"
              placeholder="http://127.0.0.1:11434/v1"
              value={f.baseUrl}
              disabled={pinnedBy("baseUrl") !== undefined}
              onChange={(e) => set(key, { baseUrl: e.target.value })}
            />
            <label htmlFor={id("apiKey")}>
              API key ({keyState === "set" ? "a key is stored" : "no key stored"}){note("apiKey")}
            </label>
            <input
              id={id("apiKey")}
              type="password"
              autoComplete="off"
              placeholder={keyState === "set" ? "leave empty to keep the stored key" : ""}
              value={f.apiKey}
              disabled={pinnedBy("apiKey") !== undefined}
              onChange={(e) => set(key, { apiKey: e.target.value })}
            />
            {keyState === "set" && (
              <label>
                <input
                  type="checkbox"
                  checked={f.clearKey}
                  onChange={(e) => set(key, { clearKey: e.target.checked })}
                />{" "}
                Remove the stored key
              </label>
            )}
            <label htmlFor={id("model")}>Model{note("model")}</label>
            <input
              id={id("model")}
              type="text"
              value={f.model}
              disabled={pinnedBy("model") !== undefined}
              onChange={(e) => set(key, { model: e.target.value })}
            />
          </fieldset>
        );
      })}
      <button type="button" disabled={test.isPending} onClick={() => test.mutate()}>
        {test.isPending ? "Testing…" : "Test connection"}
      </button>{" "}
      <button type="submit" disabled={save.isPending}>
        {save.isPending ? "Saving…" : "Save model settings"}
      </button>
      {test.data && (
        <p role={test.data.ok ? "status" : "alert"} className={test.data.ok ? "" : "error"}>
          {test.data.ok
            ? `Connected: ${test.data.provider} ${test.data.model} answered in ${test.data.latency_ms ?? 0} ms.`
            : `${test.data.provider} ${test.data.model} failed: ${test.data.error?.message ?? ""} (${test.data.error?.hint ?? ""})`}
        </p>
      )}
      {save.isSuccess && <p role="status">Saved. New calls use these settings.</p>}
      <ErrorNote error={save.error ?? test.error} />
      {view.audit.length > 0 && (
        <details>
          <summary>Recent changes</summary>
          <ul>
            {view.audit.map((a) => (
              <li key={`${a.changed_at}-${a.changed_by}`}>
                {new Date(a.changed_at).toLocaleString()} by {a.changed_by}:{" "}
                {a.changes.map((c) => `${c.setting} ${c.change}`).join("; ") || "no change"}
              </li>
            ))}
          </ul>
        </details>
      )}
    </form>
  );
}
