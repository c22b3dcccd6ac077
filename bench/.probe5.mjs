import { spawn } from "node:child_process";
import { RpcPeer } from "@anna-ai/jsonrpc";
import { ChildProcessTransport } from "@anna-ai/jsonrpc/node";
import { performance } from "node:perf_hooks";
import { readFileSync } from "node:fs";
const env = { PATH: process.env.PATH, HOME: process.env.HOME, LANG: "C.UTF-8" };
const cpu = (pid) => { const f = readFileSync(`/proc/${pid}/stat`, "utf8"); const r = f.slice(f.lastIndexOf(")") + 2).split(" "); return (Number(r[11]) + Number(r[12])) * 10; };
async function run(detached, timeoutMs) {
  const child = spawn(process.execPath, ["/work/main/bench/host/plugins/floor-plugin.mjs"], { env, detached, stdio: ["pipe", "pipe", "pipe"] });
  const peer = new RpcPeer(new ChildProcessTransport(child, {}), {});
  peer.start();
  await peer.request("initialize", {}); await peer.request("describe");
  const opts = timeoutMs ? { timeoutMs } : {};
  const pump = async (n) => { let s = 0; await Promise.all(Array.from({ length: 64 }, async () => { while (s < n) { s++; await peer.request("invoke", { tool: "echo", arguments: { text: "hello" } }, opts); } })); };
  await pump(5000);
  const h0 = cpu(process.pid), c0 = cpu(child.pid), t0 = performance.now();
  await pump(30000);
  const el = performance.now() - t0;
  console.log(`detached=${detached} timeout=${timeoutMs}: ${(30000 / el).toFixed(1)}k/s host cpu ${cpu(process.pid) - h0}ms plugin cpu ${cpu(child.pid) - c0}ms`);
  await peer.close(); await new Promise((r) => child.once("exit", r));
}
for (let i = 0; i < 2; i++) { await run(false, 0); await run(true, 0); await run(false, 60000); }
