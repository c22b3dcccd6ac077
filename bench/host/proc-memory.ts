// Memory and CPU figures straight from /proc: VmRSS of any pid and the peak (VmHWM) of this process,
// which clear_refs can reset so a peak belongs to one measured operation.
import { readFileSync, writeFileSync } from "node:fs";

const KIB_PER_MIB = 1024;

function statusField(pid: number | "self", field: "VmRSS" | "VmHWM"): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status);
  if (match?.[1] === undefined) throw new Error(`${field} missing from /proc/${pid}/status`);
  return Number(match[1]) / KIB_PER_MIB;
}

/** Resident set of a process in MiB. */
export function rssMiB(pid: number | "self"): number {
  return statusField(pid, "VmRSS");
}

/** Peak resident set of this process in MiB since start or the last resetPeakRss(). */
export function peakRssMiB(): number {
  return statusField("self", "VmHWM");
}

/** Reset VmHWM to the current RSS (Linux ≥ 4.0). Returns false where /proc refuses it. */
export function resetPeakRss(): boolean {
  try {
    writeFileSync("/proc/self/clear_refs", "5");
    return true;
  } catch {
    return false;
  }
}

const CLOCK_TICKS_PER_S = 100;

/**
 * CPU time (user + system) a process has used, in ms, from /proc/<pid>/stat. Resolution is one
 * clock tick (10 ms), so only differences over long runs are meaningful.
 */
export function cpuTimeMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields after "(comm)": state is field 3; utime and stime are fields 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1000) / CLOCK_TICKS_PER_S;
}

/**
 * The plugin's own pid when `pid` is the bubblewrap supervisor the host started it under (its
 * init, then the plugin, are children of children): memory and CPU figures are the plugin's.
 */
export function pluginPidUnder(pid: number): number {
  let current = pid;
  for (let depth = 0; depth < 3; depth++) {
    let comm: string;
    let children: string;
    try {
      comm = readFileSync(`/proc/${current}/comm`, "utf8").trim();
      if (comm !== "bwrap") return current;
      children = readFileSync(`/proc/${current}/task/${current}/children`, "utf8").trim();
    } catch {
      return current;
    }
    const first = Number(children.split(" ")[0]);
    if (!Number.isInteger(first) || first <= 0) return current;
    current = first;
  }
  return current;
}
