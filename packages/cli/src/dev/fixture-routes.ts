// The harness's fixture endpoints, for the dashboard and scripts:
//   GET  /dev/api/fixtures         → {globs, record_dir, recording, files: [{file, bytes, modified}]}
//   POST /dev/api/fixtures/replay  {file, window_uuid?} → a LiveReplayReport
// `file` must be a name the list holds (no path of the caller's making is read); the window is the
// boot window unless `window_uuid` names another live one. A replay acts for the developer; the
// server's origin guard (routes/origin-guard.ts) answers 403 to the app's iframe and to other sites.
import path from "node:path";
import type { CallResult } from "@anna-ai/app-core";
import { errorResponse, jsonFields, jsonResponse, readJsonBody } from "@anna-ai/app-core/http";
import type { Hono } from "hono";
import { FIXTURE_FILE_KIND_LABELS } from "@anna-ai/app-schema";
import { httpStatusOf } from "@anna-ai/app-schema/host-api";
import {
  FixtureFileError,
  NotARecordingError,
  readRecordingFile,
} from "../fixture/read-fixture.js";
import type { DevFixtures } from "./dev-fixtures.js";
import { replayIntoWindow, ReplayRefused, type LiveReplayReport } from "./fixture-replay.js";
import type { DevEnv } from "./routes/request-target.js";

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

export function addFixtureRoutes(app: Hono<DevEnv>, deps: FixtureRouteDeps): void {
  app.get(FIXTURES_ROUTE, async () =>
    jsonResponse(200, {
      globs: deps.fixtures.globs,
      record_dir: relative(deps.projectDir, deps.fixtures.recordDir),
      recording: deps.recordPath === undefined ? null : relative(deps.projectDir, deps.recordPath),
      files: await deps.fixtures.list(),
    }),
  );
  app.post(FIXTURE_REPLAY_ROUTE, async (c) => replay(await readJsonBody(c.req.raw), deps));
}

async function replay(body: unknown, deps: FixtureRouteDeps): Promise<Response> {
  const { file, window_uuid: wanted } = jsonFields(body);
  if (typeof file !== "string" || (wanted !== undefined && typeof wanted !== "string")) {
    return errorResponse(
      "invalid_arg",
      'the body is {"file": "<a name from GET /dev/api/fixtures>"}',
    );
  }
  const absolute = await deps.fixtures.resolve(file);
  if (absolute === undefined) {
    return errorResponse(
      "not_found",
      `${JSON.stringify(file)} is not a recording manifest.dev.fixtures lists; GET ${FIXTURES_ROUTE} names them`,
    );
  }
  const windowUuid = wanted ?? deps.bootWindow();
  let token = await deps.mintToken(windowUuid);
  if (token === undefined) {
    return errorResponse("not_found", `no live window ${windowUuid} to replay into`);
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
      return errorResponse(
        "invalid_recording",
        `${file} is ${FIXTURE_FILE_KIND_LABELS[error.kind]}`,
      );
    }
    if (error instanceof FixtureFileError) {
      return errorResponse("not_found", `${file}: ${error.message}`);
    }
    if (!(error instanceof ReplayRefused)) throw error;
    return jsonResponse(httpStatusOf("invalid_recording"), {
      ok: false,
      error: { code: "invalid_recording", message: error.message },
      issues: error.issues.slice(0, MAX_ISSUES_IN_REFUSAL),
    });
  }
  deps.onReplay(report);
  return jsonResponse(200, report);
}

function relative(root: string, file: string): string {
  return path.relative(root, file).split(path.sep).join("/") || ".";
}
