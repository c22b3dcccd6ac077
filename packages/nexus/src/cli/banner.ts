// The few lines `npm start` prints on stdout once the platform is up, for the person at the
// terminal (the JSON log on stderr is for machines): where to open it, how to sign in the first
// time, which model answers, whether plugins are sandboxed, where the data is, how to stop.
// Colour only on a terminal; plain lines in a pipe or a log file.
import { probeSupervisor, SUPERVISOR_ENV, type SupervisorStatus } from "@anna-ai/executa-host";
import type { FirstAdmin } from "./platform-accounts.js";

export interface BannerFacts {
  url: string;
  /** Set only by the start that created the first admin: the one time its password is shown. */
  admin: FirstAdmin | undefined;
  chatModel: { provider: string; model: string | undefined };
  sandbox: string;
  dataDir: string;
  database: { dialect: string; location: string };
  /** One line per example app (what this start did with it). */
  apps: readonly string[];
  dashboard: boolean;
}

/** How the plugins this server runs are confined, in one phrase. */
export function sandboxPhrase(
  env: NodeJS.ProcessEnv,
  probe: () => SupervisorStatus = probeSupervisor,
): string {
  const mode = env[SUPERVISOR_ENV]?.trim() || "auto";
  if (mode === "none") return `off (${SUPERVISOR_ENV}=none): plugins run as this user`;
  const status = probe();
  return status.kind === "bwrap"
    ? "bubblewrap: each plugin in its own PID namespace"
    : `none — ${status.reason}; plugins run as this user`;
}

export function modelPhrase(m: BannerFacts["chatModel"]): string {
  if (m.provider === "offline") {
    return "offline model — no real model configured; set ANNA_LLM_PROVIDER=… to connect one, see docs/agent.md";
  }
  return `${m.provider} ${m.model ?? ""}`.trim();
}

export function renderBanner(f: BannerFacts, color: boolean): string {
  const bold = (s: string) => (color ? `\u001b[1m${s}\u001b[22m` : s);
  const cyan = (s: string) => (color ? `\u001b[36m${s}\u001b[39m` : s);
  const row = (label: string, value: string) => `  ${label.padEnd(10)} ${value}`;
  const lines = ["", bold("Anna platform is running"), "", row("open", cyan(`${f.url}/`))];
  if (!f.dashboard) {
    lines.push(
      row("", "(the dashboard is not built: run `npm run build`; the API works meanwhile)"),
    );
  }
  if (f.admin) {
    lines.push(
      row("admin", `${f.admin.email}  password ${bold(f.admin.password)}`),
      row("", "shown this once and stored only as a hash: write it down now"),
    );
  }
  lines.push(row("model", modelPhrase(f.chatModel)), row("sandbox", f.sandbox));
  const where =
    f.database.dialect === "sqlite" ? f.dataDir : `${f.database.location} (files in ${f.dataDir})`;
  lines.push(row("data", where));
  for (const [i, app] of f.apps.entries()) lines.push(row(i === 0 ? "apps" : "", app));
  lines.push(row("stop", "Ctrl-C"), "");
  return lines.join("\n") + "\n";
}
