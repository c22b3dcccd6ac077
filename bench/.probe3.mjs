import { spawn } from "node:child_process";
import { performance } from "node:perf_hooks";
const env = { PATH: process.env.PATH, HOME: process.env.HOME, LANG: "C.UTF-8" };
async function run(detached) {
  const child = spawn(process.execPath, ["/work/main/bench/host/plugins/floor-plugin.mjs"], { env, detached, stdio: ["pipe", "pipe", "inherit"] });
  const waiters = new Map(); let id = 0; let pending = [];
  child.stdout.on("data", (chunk) => {
    let start = 0, nl;
    while ((nl = chunk.indexOf(10, start)) !== -1) {
      let line = chunk.subarray(start, nl);
      if (pending.length) { pending.push(line); line = Buffer.concat(pending); pending = []; }
      start = nl + 1;
      const f = JSON.parse(line.toString()); const w = waiters.get(f.id); waiters.delete(f.id); w?.(f.result);
    }
    if (start < chunk.length) pending.push(chunk.subarray(start));
  });
  const req = (method, params) => new Promise((r) => { const i = id++; waiters.set(i, r); child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id: i, method, params }) + "\n"); });
  const t0 = performance.now();
  await req("initialize", {}); await req("describe");
  const ready = performance.now() - t0;
  const pump = async (n) => { let s = 0; await Promise.all(Array.from({ length: 64 }, async () => { while (s < n) { s++; await req("invoke", { tool: "echo", arguments: { text: "hello" } }); } })); };
  await pump(5000);
  const t1 = performance.now(); await pump(30000); const tp = 30000 / (performance.now() - t1) * 1000;
  const lat = []; for (let i = 0; i < 3000; i++) { const a = performance.now(); await req("invoke", { tool: "echo", arguments: { text: "hello" } }); lat.push(performance.now() - a); }
  lat.sort((a, b) => a - b);
  child.stdin.end(); await new Promise((r) => child.once("exit", r));
  return `detached=${detached} ready=${ready.toFixed(1)}ms tp=${(tp / 1000).toFixed(1)}k p50=${lat[1500].toFixed(3)} p99=${lat[2970].toFixed(3)}`;
}
for (let i = 0; i < 3; i++) for (const d of [false, true]) console.log(await run(d));
