// After the load: what the cluster must have kept, read back through the same target, and what
// the clients saw, as named checks (each one line in the summary, failed ones with examples).
import { NoReply, send, type Target } from "./http.js";
import type { Recorder } from "./stats.js";
import { STREAM_CAP, type UserResult } from "./load.js";

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

const KV = "/api/v1/storage/kv?scope=user";
/** Failures this close to a fault window still belong to it (health-check interval, reconnects). */
export const FAULT_GRACE_MS = 3_000;

async function readKv(
  t: Target,
  cookie: string,
  key: string,
): Promise<{ exists: boolean; value: unknown }> {
  for (let i = 0; ; i++) {
    try {
      const r = await send(t, "GET", `${KV}&key=${encodeURIComponent(key)}`, { cookie });
      if (r.status === 200) return r.body as { exists: boolean; value: unknown };
      if (i >= 3) throw new Error(`reading ${key} answered ${r.status} ${JSON.stringify(r.body)}`);
    } catch (err) {
      if (!(err instanceof NoReply) || i >= 3) throw err;
    }
  }
}

const examples = (list: string[]) => (list.length ? `; e.g. ${list.slice(0, 3).join(" | ")}` : "");

export async function checkStorage(t: Target, users: UserResult[]): Promise<Check[]> {
  const lost: string[] = [];
  const phantom: string[] = [];
  const inconsistent: string[] = [];
  const missingWrites: string[] = [];
  let acked = 0;
  let landedAmbiguous = 0;
  let writes = 0;
  for (const u of users) {
    for (const c of u.counters) {
      const got = await readKv(t, u.cookie, c.key);
      const v = (got.value ?? { n: 0, ops: [] }) as { n: number; ops: string[] };
      const ops = new Set(v.ops);
      if (v.n !== v.ops.length || ops.size !== v.ops.length) {
        inconsistent.push(
          `${u.email} ${c.key}: n=${v.n}, ${v.ops.length} ops, ${ops.size} distinct`,
        );
      }
      for (const id of c.acked) if (!ops.has(id)) lost.push(`${u.email} ${c.key} op ${id}`);
      for (const id of ops) {
        if (c.ambiguous.has(id)) landedAmbiguous++;
        else if (!c.acked.has(id)) phantom.push(`${u.email} ${c.key} op ${id}`);
      }
      acked += c.acked.size;
    }
    for (const [key, i] of u.writes.acked) {
      writes++;
      const got = await readKv(t, u.cookie, key);
      const v = got.value as { i?: number; who?: string } | null;
      if (!got.exists || v?.i !== i || v.who !== u.email)
        missingWrites.push(`${u.email} ${key}: ${JSON.stringify(got)}`);
    }
  }
  const ambiguous = users.reduce(
    (n, u) => n + u.counters.reduce((m, c) => m + c.ambiguous.size, 0),
    0,
  );
  return [
    {
      name: "no lost if_match update",
      ok: lost.length === 0 && inconsistent.length === 0,
      detail: `${acked} acknowledged increments, ${lost.length} missing from their counter, ${inconsistent.length} counters whose n is not their op count${examples([...lost, ...inconsistent])}`,
    },
    {
      name: "no increment from nowhere",
      ok: phantom.length === 0,
      detail: `${ambiguous} unanswered increments, ${landedAmbiguous} of them landed; ${phantom.length} ops neither acknowledged nor sent${examples(phantom)}`,
    },
    {
      name: "every acknowledged write present",
      ok: missingWrites.length === 0,
      detail: `${writes} acknowledged writes read back, ${missingWrites.length} missing or different${examples(missingWrites)}`,
    },
  ];
}

export function checkClients(rec: Recorder, users: UserResult[]): Check[] {
  const hung = rec.samples.filter((s) => s.outcome === "timeout");
  const capped = rec.samples.filter((s) => s.outcome === STREAM_CAP).length;
  const failed = rec.samples.filter((s) => s.outcome !== "ok" && s.outcome !== STREAM_CAP);
  const outside = failed.filter((s) => !rec.inFault(s.at, FAULT_GRACE_MS));
  const byKind = new Map<string, number>();
  for (const s of failed) byKind.set(s.outcome, (byKind.get(s.outcome) ?? 0) + 1);
  const kinds = [...byKind].map(([k, n]) => `${n} ${k}`).join(", ") || "none";

  let dup = 0;
  let missingInGap = 0;
  const resumes = users.reduce((n, u) => n + u.events.resumes, 0);
  const resyncs = users.reduce((n, u) => n + u.events.resyncs, 0);
  const missingOutside: string[] = [];
  let ackedTitles = 0;
  for (const u of users) {
    const seen = new Map<string, number>();
    for (const t of u.events.received) seen.set(t, (seen.get(t) ?? 0) + 1);
    for (const n of seen.values()) dup += n - 1;
    for (const a of u.events.acked) {
      ackedTitles++;
      if (seen.has(a.title)) continue;
      // A reconnect with Last-Event-ID replays its gap, so only a gap without one excuses a miss.
      const inGap = u.events.gaps.some(
        (g) => !g.replayed && a.at >= g.from - 1_000 && a.at <= g.to + 1_000,
      );
      if (inGap || rec.inFault(a.at, FAULT_GRACE_MS)) missingInGap++;
      else missingOutside.push(`${u.email} ${a.title}`);
    }
  }
  const t = users.reduce(
    (a, u) => ({
      completed: a.completed + u.turns.completed,
      failed: [...a.failed, ...u.turns.failed],
      hung: [...a.hung, ...u.turns.hung],
      bad: [...a.bad, ...u.turns.badFrames],
      resumes: a.resumes + u.turns.resumes,
    }),
    { completed: 0, failed: [] as string[], hung: [] as string[], bad: [] as string[], resumes: 0 },
  );
  // A node that stops fails its own turns; it must not fail those another node runs (D-nexus-167).
  const killed = new Set(rec.faults.flatMap((w) => (w.node ? [w.node] : [])));
  const stopped = users.flatMap((u) => u.turns.stopped);
  const stoppedElsewhere = stopped.filter((s) => !killed.has(s.node));
  // One process per (user, tool) in the cluster (D-nexus-168): a session started on the plugin is
  // found by the next call wherever HAProxy sends it, except when its process died with a node.
  const sessionsDone = users.reduce((n, u) => n + u.sessions.completed, 0);
  const lost = users.flatMap((u) => u.sessions.lost);
  const lostOutside = lost.filter((l) => !rec.inFault(l.at, FAULT_GRACE_MS));
  const usersWithSessions = users.filter((u) => u.sessions.completed > 0).length;
  return [
    {
      name: "no request hung",
      ok: hung.length === 0,
      detail: `${rec.samples.length} requests, ${hung.length} without an answer within their timeout`,
    },
    {
      name: "failures only in fault windows",
      ok: outside.length === 0,
      detail: `${failed.length} failed (${kinds}); ${outside.length} outside a fault window${examples(outside.map((s) => `${s.op} on ${s.node}: ${s.outcome}`))}`,
    },
    {
      name: "window events once each",
      ok: dup === 0 && missingOutside.length === 0,
      detail: `${ackedTitles} titles set, ${dup} delivered twice, ${missingInGap} missed in a fault window or a gap the log could not replay, ${missingOutside.length} missed otherwise${examples(missingOutside)}; ${resumes} reconnects resumed with Last-Event-ID, ${resyncs} told anna.resync; ${capped} stream opens refused with 429 (the node's stream cap)`,
    },
    {
      name: "chat streams resume exactly",
      ok: t.bad.length === 0,
      detail: `${t.resumes} resumes with Last-Event-ID, ${t.bad.length} turns with a missing or repeated frame${examples(t.bad)}`,
    },
    {
      name: "a node's stop fails only its own chat turns",
      ok: stoppedElsewhere.length === 0,
      detail: `${stopped.length} turns ended "the server stopped", ${stoppedElsewhere.length} of them started on a node that did not stop${examples(stoppedElsewhere.map((s) => `${s.turnId} on ${s.node}`))}`,
    },
    {
      name: "a user's plugin process keeps its state on every node",
      ok: lostOutside.length === 0 && usersWithSessions === users.length,
      detail: `${sessionsDone} focus sessions started and completed through the plugin by ${usersWithSessions} of ${users.length} users; ${lost.length} not found by their complete_session, ${lostOutside.length} outside a fault window${examples(lostOutside.map((l) => l.why))}`,
    },
    {
      name: "no chat turn hung",
      ok: t.hung.length === 0,
      detail: `${t.completed} completed, ${t.failed.length} failed with an error, ${t.hung.length} never finished${examples([...t.hung, ...t.failed])}`,
    },
  ];
}
