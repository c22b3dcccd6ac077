// The same two HTTP routes the Chromium figures use, called from Node with no browser in between:
// splits a browser round trip into what the harness costs and what Chromium's network stack costs.
import { Agent, request } from "node:http";
import type { Banner } from "./harness.js";

const API = "/api/v1/anna-apps/runtime";
const RPC_PATH = `${API}/rpc`;
const FLOOR_PATH = "/dev/api/report";

export type NodeRoute = "floor" | "rpc";

/** `count` sequential POSTs after `warmup` unmeasured ones over one kept-alive connection. */
export async function nodeRoundTrips(
  banner: Banner,
  route: NodeRoute,
  warmup: number,
  count: number,
): Promise<number[]> {
  const wid = banner.window?.window_uuid;
  if (wid === undefined) throw new Error("the --json banner has no window");
  const url = new URL(banner.dashboard);
  // A fresh window token (they live 120 s; the run may be older than the boot one).
  const { token } = (await (await fetch(new URL(`${API}/windows/${wid}`, url))).json()) as {
    token: string;
  };
  const body = JSON.stringify({ id: "n", window_uuid: wid, ns: "window", method: "heartbeat" });
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const post = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: route === "rpc" ? RPC_PATH : FLOOR_PATH,
          method: "POST",
          agent,
          headers: {
            "content-type": "application/json",
            "content-length": Buffer.byteLength(body),
            ...(route === "rpc" ? { "x-anna-app-token": token } : {}),
          },
        },
        (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => (text += chunk));
          res.on("end", () => {
            if (res.statusCode !== 200 || !text.includes('"ok":true')) {
              reject(new Error(`POST ${route}: ${res.statusCode} ${text}`));
            } else resolve();
          });
        },
      );
      req.on("error", reject);
      req.end(body);
    });
  try {
    for (let i = 0; i < warmup; i++) await post();
    const samples: number[] = [];
    for (let i = 0; i < count; i++) {
      const started = performance.now();
      await post();
      samples.push(performance.now() - started);
    }
    return samples;
  } finally {
    agent.destroy();
  }
}
