// The simulated users. Each one signs up, then until the deadline runs at once:
// - two compare-and-swap workers on two shared counters (storage KV, `if_match` on the etag they
//   read; a 412 re-reads and retries). A counter's value is `{n, ops}`, `ops` the id of every
//   increment that landed, so a lost update is an acknowledged id missing from it;
// - a writer of unique keys, each acknowledged one read back at the end;
// - focus sessions on the focus-flow plugin (start, then complete) through the window's
//   tools.invoke: the plugin keeps the running session in its process's memory;
// - an app window (focus-flow) whose title it sets over rpc while it holds the app's event
//   stream, reconnecting when the stream breaks; every acknowledged title should arrive once;
// - chat turns against the fake provider, reading each turn's SSE stream and resuming it with
//   Last-Event-ID (on whatever node HAProxy picks) after a deliberate drop or a broken stream.
import { appStore, openDatabase, systemClock } from "@anna-ai/nexus";
import { NoReply, type Reply, send, sseFrames, type Target, REQUEST_TIMEOUT_MS } from "./http.js";
import type { Recorder } from "./stats.js";

const COUNTERS = 2;
const CAS_WORKERS = 2;
const TITLE_EVERY_MS = 300;
/** The pause between one user's focus sessions (start, then complete, on the plugin). */
const SESSION_EVERY_MS = 1_000;
const TURN_DEADLINE_MS = 30_000;
const KV = "/api/v1/storage/kv?scope=user";
const WINDOWS = "/api/v1/anna-apps/runtime/windows";
/** The outcome of an event stream a node refused with 429 because it holds its maximum. */
export const STREAM_CAP = "429 stream cap";

export interface UserResult {
  email: string;
  cookie: string;
  counters: { key: string; acked: Set<string>; ambiguous: Set<string> }[];
  writes: { acked: Map<string, number>; ambiguous: number };
  casRetries: number;
  events: EventCheck;
  turns: TurnCheck;
  sessions: SessionCheck;
}

/**
 * Focus sessions on the focus-session plugin, which keeps the running one in its process's
 * memory: a `complete_session` that finds no session means another process answered it.
 */
export interface SessionCheck {
  completed: number;
  /** complete_session answers that did not find the session started just before. */
  lost: { at: number; why: string }[];
}

export interface EventCheck {
  acked: { title: string; at: number }[];
  received: string[];
  /**
   * When the stream was not open. A reconnect resumes from the last event id, so only the first
   * gap (no id yet) or one the server answered with `anna.resync` may have lost titles.
   */
  gaps: { from: number; to: number; replayed: boolean }[];
  /** Reconnects that sent Last-Event-ID, and the anna.resync frames they got. */
  resumes: number;
  resyncs: number;
}

export interface TurnCheck {
  completed: number;
  failed: string[];
  hung: string[];
  resumes: number;
  /** Turns whose frames had a gap or a repeat, with what was seen. */
  badFrames: string[];
  /** Turns that ended "the server stopped", with the node that started them. */
  stopped: { node: string; turnId: string }[];
}

export interface LoadOptions {
  target: Target;
  users: number;
  seconds: number;
  thinkMs: number;
  appId: string;
  appVersion: string;
  /** The focus-session plugin's tool id (the window invokes it). */
  focusSessionToolId: string;
  databaseUrl: string;
  /** Prefix of the users' emails: one run's users are not another's. */
  run: string;
  rec: Recorder;
  /** Runs beside the load (the faults); awaited before the load's results are final. */
  during?: () => Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A request recorded under `op`: the reply, or a NoReply (also recorded). */
async function timed(
  rec: Recorder,
  op: string,
  t: Target,
  method: string,
  path: string,
  opts: Parameters<typeof send>[3] = {},
): Promise<Reply | NoReply> {
  try {
    const r = await send(t, method, path, opts);
    rec.add(
      op,
      r.node,
      r.ms,
      r.status < 400 || r.status === 412 || r.status === 409 ? "ok" : `http ${r.status}`,
    );
    return r;
  } catch (err) {
    if (!(err instanceof NoReply)) throw err;
    rec.add(op, err.node, err.ms, err.kind);
    return err;
  }
}

/** Setup calls (before the faults start) must work; a few tries for a cold node. */
async function must(
  t: Target,
  method: string,
  path: string,
  opts: Parameters<typeof send>[3],
  want: number,
): Promise<Reply> {
  let last = "";
  for (let i = 0; i < 5; i++) {
    try {
      const r = await send(t, method, path, opts);
      if (r.status === want) return r;
      last = `${r.status} ${JSON.stringify(r.body)}`;
    } catch (err) {
      last = String(err);
    }
    await sleep(200);
  }
  throw new Error(`setup ${method} ${path} via ${t.name} answered ${last}; expected ${want}`);
}

export async function runLoad(o: LoadOptions): Promise<UserResult[]> {
  const db = openDatabase({ url: o.databaseUrl, dataDir: "" });
  const users = [];
  try {
    for (let i = 0; i < o.users; i++) users.push(await setUpUser(o, db.db, i));
  } finally {
    await db.close();
  }
  o.rec.startedAt = Date.now();
  const deadline = o.rec.startedAt + o.seconds * 1000;
  const during = o.during?.() ?? Promise.resolve();
  const results = await Promise.all(users.map((u) => runUser(o, u, deadline)));
  o.rec.endedAt = Date.now();
  await during;
  return results;
}

interface SetUpUser {
  email: string;
  cookie: string;
  conversation: string;
  window: { uuid: string; token: string };
}

async function setUpUser(
  o: LoadOptions,
  db: Parameters<typeof appStore>[0]["db"],
  i: number,
): Promise<SetUpUser> {
  const email = `${o.run}-${i}@example.com`;
  const signup = await must(
    o.target,
    "POST",
    "/api/v1/auth/signup",
    { body: { email, password: "correct horse battery" } },
    201,
  );
  const cookie = /anna_session=[^;]+/.exec(signup.headers.get("set-cookie") ?? "")?.[0] ?? "";
  if (!cookie) throw new Error(`signup of ${email} set no anna_session cookie`);
  const me = (await must(o.target, "GET", "/api/v1/me", { cookie }, 200)).body as { id: number };
  // The store's install, with the app's required plugin (the window's tools.invoke needs it).
  await appStore({ db, clock: systemClock })
    .installs.install(me.id, "focus-flow")
    .catch((err: unknown) => {
      throw new Error(`installing focus-flow for ${email} failed: ${String(err)}`);
    });
  const conv = (
    await must(o.target, "POST", "/api/v1/chat/conversations", { cookie, body: {} }, 201)
  ).body as { id: string };
  const win = (
    await must(
      o.target,
      "POST",
      `${WINDOWS}?app_id=${o.appId}`,
      { cookie, body: { view: "main" } },
      201,
    )
  ).body as {
    window: { window_uuid: string };
    token: string;
  };
  // The counters exist before the load: `if_match: null` is an unconditional write (not "only
  // if absent"), so two workers creating one counter at once would overwrite each other.
  for (let c = 0; c < COUNTERS; c++) {
    await must(
      o.target,
      "PUT",
      KV,
      { cookie, body: { key: `counter/${c}`, value: { n: 0, ops: [] } } },
      200,
    );
  }
  return {
    email,
    cookie,
    conversation: conv.id,
    window: { uuid: win.window.window_uuid, token: win.token },
  };
}

async function runUser(o: LoadOptions, u: SetUpUser, deadline: number): Promise<UserResult> {
  const result: UserResult = {
    email: u.email,
    cookie: u.cookie,
    counters: Array.from({ length: COUNTERS }, (_, c) => ({
      key: `counter/${c}`,
      acked: new Set<string>(),
      ambiguous: new Set<string>(),
    })),
    writes: { acked: new Map(), ambiguous: 0 },
    casRetries: 0,
    events: { acked: [], received: [], gaps: [], resumes: 0, resyncs: 0 },
    turns: { completed: 0, failed: [], hung: [], resumes: 0, badFrames: [], stopped: [] },
    sessions: { completed: 0, lost: [] },
  };
  const live = () => Date.now() < deadline;
  const think = () => sleep(o.thinkMs * (0.5 + Math.random()));
  let opSeq = 0;

  const casWorker = async (w: number) => {
    while (live()) {
      const counter = result.counters[Math.floor(Math.random() * COUNTERS)]!;
      const opId = `${w}.${++opSeq}`;
      for (;;) {
        const got = await timed(o.rec, "kv get", o.target, "GET", `${KV}&key=${counter.key}`, {
          cookie: u.cookie,
        });
        if (got instanceof NoReply || got.status !== 200) {
          if (!live()) break;
          await sleep(100);
          continue;
        }
        const cur = got.body as { etag: string; value: { n: number; ops: string[] } };
        const value = cur.value;
        const put = await timed(o.rec, "kv cas set", o.target, "PUT", KV, {
          cookie: u.cookie,
          body: {
            key: counter.key,
            value: { n: value.n + 1, ops: [...value.ops, opId] },
            if_match: cur.etag,
          },
        });
        if (!(put instanceof NoReply) && put.status === 200) {
          counter.acked.add(opId);
          break;
        }
        if (!(put instanceof NoReply) && put.status === 412) {
          result.casRetries++;
          continue;
        }
        // No answer, or a 5xx: it may have landed. The final check allows it either way.
        counter.ambiguous.add(opId);
        break;
      }
      await think();
    }
  };

  const writer = async () => {
    let i = 0;
    while (live()) {
      const key = `write/${++i}`;
      const put = await timed(o.rec, "kv set", o.target, "PUT", KV, {
        cookie: u.cookie,
        body: { key, value: { i, who: u.email } },
      });
      if (!(put instanceof NoReply) && put.status === 200) result.writes.acked.set(key, i);
      else result.writes.ambiguous++;
      await think();
    }
  };

  const titles = async () => {
    let seq = 0;
    while (live()) {
      const title = `t${++seq}`;
      const r = await timed(
        o.rec,
        "window rpc",
        o.target,
        "POST",
        "/api/v1/anna-apps/runtime/rpc",
        {
          headers: { "x-anna-app-token": u.window.token },
          body: {
            id: String(seq),
            window_uuid: u.window.uuid,
            ns: "window",
            method: "set_title",
            args: { title },
          },
        },
      );
      if (!(r instanceof NoReply) && r.status === 200 && (r.body as { ok?: boolean }).ok === true) {
        result.events.acked.push({ title, at: Date.now() });
      }
      await sleep(TITLE_EVERY_MS);
    }
  };

  const sessions = async () => {
    let seq = 0;
    const invoke = (method: string, args: Record<string, unknown>) =>
      timed(o.rec, `plugin ${method}`, o.target, "POST", "/api/v1/anna-apps/runtime/rpc", {
        headers: { "x-anna-app-token": u.window.token },
        body: {
          id: `s${++seq}`,
          window_uuid: u.window.uuid,
          ns: "tools",
          method: "invoke",
          args: { tool_id: o.focusSessionToolId, method, args },
        },
      });
    type Answer = {
      ok?: boolean;
      result?: { session?: { id?: string } | null };
      error?: { message?: string };
    };
    const answer = (r: Reply | NoReply) =>
      r instanceof NoReply || r.status !== 200 ? undefined : (r.body as Answer);
    while (live()) {
      const started = answer(await invoke("start_session", { task: `s${seq}`, minutes: 5 }));
      const id = started?.ok === true ? started.result?.session?.id : undefined;
      if (id === undefined) {
        // A session left running by a complete whose answer was lost: finish it first.
        const current = answer(await invoke("current_session", {}));
        const left = current?.ok === true ? current.result?.session?.id : undefined;
        if (left !== undefined) await invoke("complete_session", { session_id: left });
        await sleep(SESSION_EVERY_MS);
        continue;
      }
      const done = answer(await invoke("complete_session", { session_id: id }));
      if (done?.ok === true) result.sessions.completed++;
      else if (done !== undefined) {
        result.sessions.lost.push({
          at: Date.now(),
          why: done.error?.message ?? JSON.stringify(done),
        });
      }
      await sleep(SESSION_EVERY_MS);
    }
  };

  // The stream stays open past the deadline long enough for the last titles to arrive.
  const streamUntil = deadline + 1_500;
  const stream = async () => {
    let brokeAt: number | undefined = Date.now();
    let lastId: string | undefined;
    while (Date.now() < streamUntil) {
      const ctl = new AbortController();
      const stop = setTimeout(() => ctl.abort(), Math.max(0, streamUntil - Date.now()));
      try {
        const res = await fetch(
          `${o.target.url}/api/v1/anna-apps/runtime/events/stream?app_id=${o.appId}`,
          {
            headers: {
              cookie: u.cookie,
              accept: "text/event-stream",
              ...(lastId === undefined ? {} : { "last-event-id": lastId }),
            },
            signal: AbortSignal.any([
              ctl.signal,
              AbortSignal.timeout(streamUntil - Date.now() + REQUEST_TIMEOUT_MS),
            ]),
          },
        );
        if (res.status !== 200 || !res.body) {
          // 429: the node holds as many app event streams as it allows (per user and in total,
          // RUNTIME_STREAMS_*_MAX); a clean refusal, counted apart, retried after a second.
          const capped = res.status === 429;
          o.rec.add(
            "event stream open",
            res.headers.get("x-anna-node") ?? o.target.name,
            0,
            capped ? STREAM_CAP : `http ${res.status}`,
          );
          await res.body?.cancel();
          await sleep(capped ? 1_000 : 200);
          continue;
        }
        const gap =
          brokeAt === undefined
            ? undefined
            : { from: brokeAt, to: Date.now(), replayed: lastId !== undefined };
        if (gap) result.events.gaps.push(gap);
        if (lastId !== undefined) result.events.resumes++;
        brokeAt = undefined;
        for await (const f of sseFrames(res.body)) {
          if (f.id !== undefined) lastId = f.id;
          if (f.event === "anna.resync") {
            // What the gap held is gone from the server's log: a real client re-reads its windows.
            result.events.resyncs++;
            if (gap) gap.replayed = false;
            continue;
          }
          const e = f.data
            ? (JSON.parse(f.data) as { kind?: string; payload?: { title?: string } })
            : {};
          if (e.kind === "title_changed" && e.payload?.title)
            result.events.received.push(e.payload.title);
        }
      } catch {
        // broken (a node died) or our own stop: reconnect below while there is time
      } finally {
        clearTimeout(stop);
      }
      if (brokeAt === undefined) brokeAt = Date.now();
      if (Date.now() < streamUntil) await sleep(100);
    }
    if (brokeAt !== undefined)
      result.events.gaps.push({ from: brokeAt, to: Infinity, replayed: false });
  };

  const chat = async () => {
    while (live()) {
      const r = await timed(
        o.rec,
        "chat turn start",
        o.target,
        "POST",
        `/api/v1/chat/conversations/${u.conversation}/turns`,
        {
          cookie: u.cookie,
          body: { text: "What is on my list today?" },
        },
      );
      if (r instanceof NoReply || r.status !== 202) {
        await sleep(500);
        continue;
      }
      const { turn_id, events_url } = r.body as { turn_id: string; events_url: string };
      await followTurn(o, u.cookie, turn_id, events_url, result.turns, r.node);
      await sleep(o.thinkMs * 10);
    }
  };

  await Promise.all([
    ...Array.from({ length: CAS_WORKERS }, (_, w) => casWorker(w)),
    writer(),
    titles(),
    stream(),
    chat(),
    sessions(),
  ]);
  return result;
}

/**
 * Reads a turn's frames to `turn.finished`, dropping the first connection after its first frame
 * on purpose and resuming with Last-Event-ID, and resuming the same way when a stream breaks.
 */
async function followTurn(
  o: LoadOptions,
  cookie: string,
  turnId: string,
  eventsUrl: string,
  out: TurnCheck,
  startedOn: string,
): Promise<void> {
  const seqs: number[] = [];
  const until = Date.now() + TURN_DEADLINE_MS;
  let dropOnPurpose = true;
  let finished: { status?: string; error?: { code?: string; message?: string } } | undefined;
  while (finished === undefined && Date.now() < until) {
    const headers: Record<string, string> = { cookie, accept: "text/event-stream" };
    if (seqs.length) headers["last-event-id"] = String(seqs[seqs.length - 1]);
    if (seqs.length) out.resumes++;
    const start = performance.now();
    try {
      const res = await fetch(`${o.target.url}${eventsUrl}`, {
        headers,
        signal: AbortSignal.timeout(until - Date.now()),
      });
      o.rec.add(
        "chat events",
        res.headers.get("x-anna-node") ?? o.target.name,
        performance.now() - start,
        res.status === 200 ? "ok" : `http ${res.status}`,
      );
      if (res.status !== 200 || !res.body) {
        await res.body?.cancel();
        await sleep(200);
        continue;
      }
      for await (const f of sseFrames(res.body)) {
        if (f.id !== undefined) seqs.push(Number(f.id));
        if (f.event === "turn.finished") {
          finished = JSON.parse(f.data ?? "{}") as typeof finished;
          break;
        }
        if (dropOnPurpose && seqs.length === 1) break;
      }
      dropOnPurpose = false;
    } catch {
      // broken stream or the turn's deadline: resume while there is time
      await sleep(200);
    }
  }
  const contiguous = seqs.every((s, i) => s === i + 1);
  if (!contiguous) out.badFrames.push(`${turnId}: ${seqs.join(",")}`);
  if (finished === undefined) out.hung.push(turnId);
  else if (finished.status === "completed") out.completed++;
  else out.failed.push(`${finished.status}: ${finished.error?.message ?? "(no message)"}`);
  if (finished?.error?.code === "server_stopped") out.stopped.push({ node: startedOn, turnId });
}
