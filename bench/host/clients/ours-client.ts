// Placeholder until @anna-ai/executa-host and @anna-ai/executa-sdk land.
import type { ChildEnv } from "../child-env.js";
import type { BenchClient } from "./bench-client.js";

export function launchOurs(_env: ChildEnv): Promise<BenchClient> {
  return Promise.reject(new Error("ExecutaHost is not available yet"));
}
