// The boot banner (issue 5): dashboard URL, the app and its views, the window URL with `wid` and
// `t`, the executas with their state, storage and LLM modes; `--json` prints it as one line.
import path from "node:path";
import { FIXTURE_FILE_KIND_LABELS, type FixtureFileKind } from "@anna-ai/app-schema";
import type { Style } from "../cli/style.js";
import type { DevServer } from "./dev-server.js";

export interface DevBanner {
  dashboard: string;
  app: { name: string; slug: string; manifest: string; bundle: string };
  views: string[];
  /** The harness user (`--user-id`, else `manifest.dev.user_id`, else 1). */
  user_id: string;
  window: { window_uuid: string; view: string; url: string };
  executas: Array<{ tool_id: string; type: string; dir: string; state: string; stderr: string[] }>;
  executa_source: "discovery" | "--executa";
  storage: string;
  llm: string;
  /** Present when the manifest grants `web.*` / `credentials.*`. */
  web?: string;
  credentials?: string;
  recording: string | null;
  /** Why recording stopped already (its file could not be written). */
  recording_stopped?: string;
  /**
   * `manifest.dev.fixtures`: the globs, where sessions are recorded, the recordings they match
   * (not this session's own), and the other files they match (mock answers, app data).
   */
  fixtures: {
    globs: string[];
    record_dir: string;
    files: string[];
    other: Array<{ file: string; kind: FixtureFileKind }>;
  };
  warnings: string[];
}

export async function devBanner(server: DevServer): Promise<DevBanner> {
  const own = server.recordPath;
  const stopped = server.recordingStatus()?.reason;
  const listed = (await server.fixtures.list()).filter(
    (f) => own === undefined || path.resolve(server.app.projectDir, f.file) !== own,
  );
  return {
    dashboard: server.url,
    app: {
      name: server.app.name,
      slug: server.app.slug,
      manifest: server.app.manifestPath,
      bundle: server.app.bundleDir,
    },
    views: server.views,
    user_id: server.dispatcher.userId,
    window: server.window,
    executas: server.executaStates().map(({ tool_id, type, dir, state, stderr }) => ({
      tool_id,
      type,
      dir,
      state,
      stderr,
    })),
    executa_source: server.executas.source,
    storage: server.storageLabel,
    llm: server.llmLabel,
    ...(hostApiGrants(server, "web") ? { web: server.webLabel } : {}),
    ...(hostApiGrants(server, "credentials") ? { credentials: server.credentialsLabel } : {}),
    recording: server.recordPath ?? null,
    ...(stopped === undefined ? {} : { recording_stopped: stopped }),
    fixtures: {
      globs: [...server.fixtures.globs],
      record_dir: server.fixtures.recordDir,
      files: listed.filter((f) => f.kind === "recording").map((f) => f.file),
      other: listed.filter((f) => f.kind !== "recording").map(({ file, kind }) => ({ file, kind })),
    },
    warnings: [...server.app.warnings, ...server.executas.warnings],
  };
}

export function formatBanner(banner: DevBanner, style: Style, cwd: string): string {
  const rel = relativeTo(cwd);
  const lines = [
    `${style.bold("anna-app dev")} — ${banner.app.name} (${banner.app.slug})`,
    // The dashboard is what to open: a window's own URL has no bridge to the harness outside it,
    // so the banner names the window instead of printing a URL that would not work on its own.
    `  Dashboard  ${style.bold(banner.dashboard)}  (open this)`,
    `  Views      ${banner.views.map((v) => (v === banner.window.view ? `${v} (open)` : v)).join(", ")}`,
    `  Window     ${banner.window.view} ${banner.window.window_uuid.slice(0, 8)}, shown in the dashboard`,
    `  User       ${banner.user_id}`,
  ];
  if (banner.executas.length === 0) {
    lines.push(`  Executas   none (${banner.executa_source})`);
  } else {
    banner.executas.forEach((e, i) => {
      const state = e.state === "idle" ? "idle, starts on the first tools.invoke" : e.state;
      lines.push(
        `  ${i === 0 ? "Executas " : "         "}  ${e.tool_id} (${e.type}, ${rel(e.dir)}) — ${state}`,
      );
    });
  }
  lines.push(`  Storage    ${banner.storage}`);
  lines.push(`  LLM        ${banner.llm}`);
  if (banner.web !== undefined) lines.push(`  Web        ${banner.web}`);
  if (banner.credentials !== undefined) lines.push(`  Accounts   ${banner.credentials}`);
  lines.push(`  Recording  ${banner.recording === null ? "off" : rel(banner.recording)}`);
  if (banner.recording_stopped !== undefined) {
    lines.push(style.yellow(`             stopped: ${banner.recording_stopped}`));
  }
  const { globs, files, other } = banner.fixtures;
  if (globs.length > 0) {
    const count = files.length === 1 ? "1 recording" : `${files.length} recordings`;
    lines.push(
      `  Fixtures   ${count} in ${globs.join(", ")} (replay: POST /dev/api/fixtures/replay)`,
    );
    for (const { file, kind } of other) {
      lines.push(style.dim(`             ${file}: ${FIXTURE_FILE_KIND_LABELS[kind]}, not counted`));
    }
  }
  for (const warning of banner.warnings) lines.push(style.dim(`  ${warning}`));
  lines.push(style.dim("  Ctrl-C stops the harness and its executas."));
  return lines.join("\n") + "\n";
}

/** A path as the banner shows it: relative to `cwd` (`.` for the cwd itself). */
export function relativeTo(cwd: string): (file: string) => string {
  return (file) => path.relative(cwd, file) || ".";
}

function hostApiGrants(server: DevServer, ns: "web" | "credentials"): boolean {
  const grant = server.app.manifest.ui?.host_api?.[ns];
  return Array.isArray(grant) && grant.length > 0;
}
