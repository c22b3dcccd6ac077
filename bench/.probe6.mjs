import { ExecutaHost } from "@anna-ai/executa-host";
const env = { PATH: process.env.PATH, HOME: process.env.HOME, LANG: "C.UTF-8" };
const file = process.argv[2] ?? "floor-plugin.mjs";
const spec = { toolId: "t", type: "node", dir: "/work/main/bench/host/plugins", command: [process.execPath, "/work/main/bench/host/plugins/" + file], cwd: "/work/main/bench/host/plugins", env: {}, binaryColdStart: false, source: "x", warnings: [] };
const logger = { debug: (m, f) => console.error("debug", m, JSON.stringify(f)?.slice(0, 300)), info: (m, f) => console.error("info", m, JSON.stringify(f)?.slice(0, 300)), warn: (m, f) => console.error("warn", m, JSON.stringify(f)?.slice(0, 300)), error: (m, f) => console.error("error", m, JSON.stringify(f)?.slice(0, 300)) };
const host = new ExecutaHost({ env, logger });
const p = host.register(spec, { userId: "u" });
p.on("frame", (e) => console.error("frame", e.direction, JSON.stringify(e.message).slice(0, 150), e.meta.bytes));
p.on("stderr", (e) => console.error("stderr", e.line));
await host.describe("u", "t");
for (const size of [1000, 100000, 600000, 1048576]) {
  const o = await host.invoke("u", "t", "echo", { text: "x".repeat(size) }, { timeoutMs: 3000 });
  console.error(size, o.ok, o.ok ? o.data.text.length : o.error.message);
}
await host.close();
