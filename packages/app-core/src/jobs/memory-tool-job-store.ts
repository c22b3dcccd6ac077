import {
  isTerminalJobState,
  type ToolJobFilter,
  type ToolJobRecord,
  type ToolJobStore,
} from "./tool-job-store.js";

/** Finished jobs kept for getJob/listJobs before the oldest are forgotten. */
export const JOB_RETAINED_MAX = 1000;

function matches(job: ToolJobRecord, filter: ToolJobFilter): boolean {
  return (
    job.userId === filter.userId &&
    (filter.appId === undefined || job.appId === filter.appId) &&
    (filter.states === undefined || filter.states.includes(job.state)) &&
    (filter.toolId === undefined || job.toolId === filter.toolId) &&
    (filter.clientTag === undefined || job.clientTag === filter.clientTag) &&
    (filter.createdSince === undefined || job.createdAt >= filter.createdSince)
  );
}

/** The memory ToolJobStore: not persisted across restarts, as the local harness (L6443). */
export function createMemoryToolJobStore(options: { retainedMax?: number } = {}): ToolJobStore {
  const retainedMax = options.retainedMax ?? JOB_RETAINED_MAX;
  // Insertion order = creation order, which `list` reverses.
  const jobs = new Map<string, ToolJobRecord>();

  function forgetOldest(): void {
    for (const [id, job] of jobs) {
      if (jobs.size <= retainedMax) return;
      if (isTerminalJobState(job.state)) jobs.delete(id);
    }
  }

  return {
    insert(record) {
      if (jobs.has(record.jobId)) {
        return Promise.reject(new Error(`job ${record.jobId} already exists`));
      }
      jobs.set(record.jobId, structuredClone(record));
      return Promise.resolve();
    },
    get(jobId) {
      const found = jobs.get(jobId);
      return Promise.resolve(found === undefined ? undefined : structuredClone(found));
    },
    transition(jobId, from, change, updatedAt) {
      const found = jobs.get(jobId);
      if (found === undefined || !from.includes(found.state)) return Promise.resolve(undefined);
      const next: ToolJobRecord = {
        ...found,
        ...structuredClone(change),
        jobId,
        seq: found.seq + 1,
        updatedAt,
      };
      jobs.set(jobId, next);
      if (isTerminalJobState(next.state)) forgetOldest();
      return Promise.resolve(structuredClone(next));
    },
    list(filter) {
      const out = [...jobs.values()].filter((job) => matches(job, filter)).reverse();
      return Promise.resolve(out.map((job) => structuredClone(job)));
    },
  };
}
