// One cold measurement in a fresh process: `worker.ts <mode> <corpus-dir> <files.json>`.
// Prints one JSON line `{ "ms": … }`. Modules are imported before the clock starts (their load
// time is reported separately as `importMs`), so every mode pays the same loader cost.
import { readFile } from "node:fs/promises";
import { performance } from "node:perf_hooks";

const [mode, dir, listFile] = process.argv.slice(2);
if (mode === undefined || dir === undefined || listFile === undefined) {
  throw new Error("usage: worker.ts <mode> <corpus-dir> <files.json>");
}
const files = JSON.parse(await readFile(listFile, "utf8")) as string[];
const importStart = performance.now();
const skills = await import("@anna-ai/skills");
const importMs = performance.now() - importStart;

/**
 * The baseline reads the ordinary async way, 32 files in flight (what the index did until it
 * moved to sliced synchronous reads); kept so figures stay comparable across runs.
 */
const CONCURRENCY = 32;
async function readAll(paths: readonly string[]): Promise<number> {
  let next = 0;
  let bytes = 0;
  const worker = async (): Promise<void> => {
    while (next < paths.length) {
      const path = paths[next++] as string;
      bytes += (await readFile(path, "utf8")).length;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return bytes;
}

const cpuStart = process.cpuUsage();
const start = performance.now();
let count = 0;
switch (mode) {
  case "read-files":
    await readAll(files);
    count = files.length;
    break;
  case "walk+read": {
    const found = await skills.discoverSkillFiles(dir);
    await readAll(found);
    count = found.length;
    break;
  }
  case "index": {
    const index = await skills.SkillIndex.build({ bundledDir: dir, os: null });
    count = index.size;
    break;
  }
  case "index+prompt": {
    const index = await skills.SkillIndex.build({ bundledDir: dir, os: null });
    const list = index.list();
    count = list.length;
    skills.renderAvailableSkillsBlock(list);
    skills.renderPythonModeSection(list);
    break;
  }
  default:
    throw new Error(`unknown mode ${mode}`);
}
const ms = performance.now() - start;
const cpu = process.cpuUsage(cpuStart);
// CPU time (all threads, libuv's pool included) is steadier than wall time on a shared machine.
const cpuMs = (cpu.user + cpu.system) / 1000;
process.stdout.write(JSON.stringify({ mode, ms, cpuMs, importMs, count }) + "\n");
