// The suites `npm run bench` runs, in order, and how: each is its own script in its own process,
// asked to write its figures (with the `report` rows of bench/report/row.ts) to a JSON file.
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO = fileURLToPath(new URL("../..", import.meta.url));
const TSX = createRequire(import.meta.url).resolve("tsx/cli");
const CHROMIUM = process.env["ANNA_CHROMIUM"] ?? "/usr/bin/chromium";

export interface Suite {
  name: string;
  /** The npm script a person runs for this suite alone. */
  script: string;
  /** argv after `node`, writing JSON to `json`. */
  command: (json: string) => string[];
  /** Extra flags for the CI smoke run: tiny counts, figures that only show it runs. */
  smoke: string[];
  /** Why this suite cannot run here, or undefined. */
  unavailable?: () => string | undefined;
}

const tsx = (file: string, jsonFlag: "--json" | "--out") => (json: string) => [
  TSX,
  join(REPO, file),
  jsonFlag,
  json,
];

export const SUITES: readonly Suite[] = [
  {
    name: "host",
    script: "bench:host",
    // Compiled: the host's figures are taken without tsx's loader in the workers.
    command: (json) => [join(REPO, "bench/dist/host/run.js"), "--json", json],
    smoke: ["--rounds", "1"],
  },
  {
    name: "executa-dev",
    script: "bench:executa-dev",
    command: tsx("bench/executa-dev/run.ts", "--out"),
    smoke: ["--rounds", "2", "--throughput-rounds", "1", "--invokes", "200"],
  },
  {
    name: "validate",
    script: "bench:validate",
    command: tsx("bench/validate/run.ts", "--out"),
    smoke: ["--rounds", "3"],
  },
  {
    name: "skills",
    script: "bench:skills",
    command: tsx("bench/skills/run.ts", "--out"),
    smoke: ["--rounds", "2"],
  },
  {
    name: "app-dev",
    script: "bench:app-dev",
    command: tsx("bench/app-dev/run.ts", "--out"),
    smoke: ["--smoke"],
    unavailable: () =>
      existsSync(CHROMIUM) ? undefined : `no Chromium at ${CHROMIUM} (apt-get install chromium)`,
  },
  {
    name: "dashboard",
    script: "bench:dashboard",
    command: tsx("bench/dashboard/run.ts", "--out"),
    smoke: ["--smoke"],
    unavailable: () =>
      existsSync(CHROMIUM) ? undefined : `no Chromium at ${CHROMIUM} (apt-get install chromium)`,
  },
  {
    name: "nexus",
    script: "bench:nexus",
    command: tsx("bench/nexus/run.ts", "--json"),
    smoke: ["--rounds", "1", "--round-ms", "100"],
  },
  {
    name: "mcp-bridge",
    script: "bench:mcp-bridge",
    command: tsx("bench/mcp-bridge/run.ts", "--out"),
    smoke: ["--rounds", "1", "--calls", "100", "--warmup", "300"],
  },
  {
    name: "agent",
    script: "bench:agent",
    command: tsx("bench/agent/run.ts", "--json"),
    smoke: ["--quick"],
  },
];
