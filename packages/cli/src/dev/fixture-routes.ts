// The harness's fixture endpoints, for the dashboard and scripts:
//   GET  /dev/api/fixtures         → {globs, record_dir, recording, files: [{file, bytes, modified}]}
//   POST /dev/api/fixtures/replay  {file, window_uuid?} → a LiveReplayReport
// `file` must be a name the list holds (no path of the caller's making is read); the window is the
// boot window unless `window_uuid` names another live one. A replay acts for the developer; the
// server's origin guard (routes/origin-guard.ts) answers 403 to the app's iframe and to other sites.
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import type { CallResult } from "@anna-ai/app-core";
import { FIXTURE_FILE_KIND_LABELS } from "@anna-ai/app-schema";
import {
  FixtureFileError,
  NotARecordingError,
  readRecordingFile,
} from "../fixture/read-fixture.js";
import type { DevFixtures } from "./dev-fixtures.js";
import { replayIntoWindow, ReplayRefused, type LiveReplayReport } from "./fixture-replay.js";
import { jsonFields, readJsonBody, sendError, sendJson } from "./http-util.js";

export const FIXTURES_ROUTE = "/dev/api/fixtures";
export const FIXTURE_REPLAY_ROUTE = "/dev/api/fixtures/replay";
/** Broken lines listed in a refusal; the recording's own `fixture verify` lists them all. */
const MAX_ISSUES_IN_REFUSAL = 20;

export interface FixtureRouteDeps {
  projectDir: string;
  fixtures: DevFixtures;
  recordPath: string | undefined;
  bootWindow(): string;
  /** A fresh token for a live window, or undefined when the window is not live. */
  mintToken(windowUuid: string): Promise<string | undefined>;
  /** One call through the harness's own path (mocks, dispatcher, panel, recording). */
  call(
    token: string | undefined,
    windowUuid: string,
    id: string,
    ns: string,
    method: string,
    args: unknown,
  ): Promise<CallResult>;
  /** Told about every finished replay (the panel's live feed). */
  onReplay(report: LiveReplayReport): void;
}

/** Handles the fixture routes; false for any other request. */
export async function fixtureRoute(
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  deps: FixtureRouteDeps,
): Promise<boolean> {
  const method = req.method ?? "GET";
  if (pathname === FIXTURES_ROUTE && method === "GET") {
    sendJson(res, 200, {
      globs: deps.fixtures.globs,
      record_dir: relative(deps.projectDir, deps.fixtures.recordDir),
      recording: deps.recordPath === undefined ? null : relative(deps.projectDir, deps.recordPath),
      files: await deps.fixtures.list(),
    });
    return true;
  }
  if (pathname !== FIXTURE_REPLAY_ROUTE || method !== "POST") return false;
  const body = await readJsonBody(req);
  const { file, window_uuid: wanted } = jsonFields(body);
  if (typeof file !== "string" || (wanted !== undefined && typeof wanted !== "string")) {
    sendError(
      res,
      400,
      "invalid_arg",
      'the body is {"file": "<a name from GET /dev/api/fixtures>"}',
    );
    return true;
  }
  const absolute = await deps.fixtures.resolve(file);
  if (absolute === undefined) {
    sendError(
      res,
      404,
      "not_found",
      `${JSON.stringify(file)} is not a recording manifest.dev.fixtures lists; GET ${FIXTURES_ROUTE} names them`,
    );
    return true;
  }
  const windowUuid = wanted ?? deps.bootWindow();
  let token = await deps.mintToken(windowUuid);
  if (token === undefined) {
    sendError(res, 404, "not_found", `no live window ${windowUuid} to replay into`);
    return true;
  }
  let report: LiveReplayReport;
  try {
    const recording = await readRecordingFile(absolute);
    let n = 0;
    report = await replayIntoWindow(file, windowUuid, recording, async (ns, m, args) => {
      // Fresh for every call (a long replay outlives one token); a call that closed the window
      // keeps the last one, and the dispatcher answers not_found as it would to the app.
      token = (await deps.mintToken(windowUuid)) ?? token;
      return deps.call(token, windowUuid, `replay-${++n}`, ns, m, args);
    });
  } catch (error) {
    if (error instanceof NotARecordingError) {
      sendError(
        res,
        422,
        "invalid_recording",
        `${file} is ${FIXTURE_FILE_KIND_LABELS[error.kind]}`,
      );
      return true;
    }
    if (error instanceof FixtureFileError) {
      sendError(res, 404, "not_found", `${file}: ${error.message}`);
      return true;
    }
    if (!(error instanceof ReplayRefused)) throw error;
    sendJson(res, 422, {
      ok: false,
      error: { code: "invalid_recording", message: error.message },
      issues: error.issues.slice(0, MAX_ISSUES_IN_REFUSAL),
    });
    return true;
  }
  deps.onReplay(report);
  sendJson(res, 200, report);
  return true;
}

function relative(root: string, file: string): string {
  return path.relative(root, file).split(path.sep).join("/") || ".";
}
