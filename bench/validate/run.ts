// `npm run bench:validate`: `anna-app validate --strict` on a realistic app (3 executas, 2 skills,
// a 2 MB bundle) generated in a temp dir, timed as the built CLI against baselines measured in
// the same run, interleaved over several rounds so machine drift hits all of them alike:
//   - `node -e 0`: a bare Node start, the floor any CLI run pays;
//   - `anna-app --version`: the CLI's own start without a command.
// Target (issue 4): validate --strict ≤ 300 ms wall. Prints medians with min–max, ratios to the
// baselines and PASS/MISS; `--json` writes them to bench/results/validate.json (`--out <file>`
// elsewhere).
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { formatNumber, formatSummary, renderTable } from "../host/format.js";
import { describeAgainst, type ReportRow } from "../report/row.js";
import { jsonOutputPath, writeJsonFile } from "../host/json-file.js";
import { summarize, type Summary } from "../host/stats.js";

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = resolve(HERE, "../..");
const CLI = join(REPO, "packages/cli/bin/anna-app.js");
const DEFAULT_JSON_PATH = join(REPO, "bench/results/validate.json");

const VALIDATE_TARGET_MS = 300;
const DEFAULT_ROUNDS = 15;
const BUNDLE_BYTES = 2 * 1024 * 1024;
/** A child that takes longer than this is a broken run, not a slow one. */
const CHILD_TIMEOUT_MS = 60_000;

const { values } = parseArgs({
  options: {
    rounds: { type: "string" },
    json: { type: "boolean" },
    out: { type: "string" },
    keep: { type: "boolean" },
  },
});
const rounds = Number(values.rounds ?? DEFAULT_ROUNDS);
const jsonPath = jsonOutputPath(values, DEFAULT_JSON_PATH);

const childEnv: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1" };
delete childEnv.FORCE_COLOR;
delete childEnv.ANNA_CLI_NO_BUNDLE;

function write(root: string, rel: string, content: string | object): void {
  const file = join(root, rel);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(
    file,
    typeof content === "string" ? content : JSON.stringify(content, null, 2) + "\n",
  );
}

/** Minified-looking vendor code: many small functions, strings and property chains. */
function vendorChunk(index: number): string {
  return (
    `function v${index}(e,t){const n=e.props??{};if(t&&t.type==="x${index}")return n.children.map(r=>r.key+"${index}");` +
    `const o=[${index},${index * 7},${index * 13}].filter(Boolean);return o.length?e.state.items.slice(0,o.length):null}` +
    `var s${index}={id:"item-${index}",label:"Label ${index}",files:[],storage:{get:function(){return ${index}}}};\n`
  );
}

/** A realistic app: the Focus Flow tree of the spec (L4724–L4753) with a large built bundle. */
function generateApp(root: string): { bundleBytes: number } {
  write(root, "app.json", {
    name: "Focus Flow",
    slug: "focus-flow",
    category: "productivity",
    tagline: "Timed focus sessions with a coach",
    bundled_executas: {
      "focus-python": { path: "executas/focus-session-python" },
      "focus-node": { path: "executas/focus-session-node" },
      "focus-go": { path: "executas/focus-session-go" },
    },
  });
  write(root, "manifest.json", {
    schema: 2,
    required_executas: [{ tool_id: "bundled:focus-python" }, { tool_id: "bundled:focus-node" }],
    optional_executas: [{ tool_id: "bundled:focus-go" }],
    permissions: [
      "tools.invoke",
      "storage.read",
      "storage.write",
      "chat.write_message",
      "llm.complete",
    ],
    host_capabilities: ["aps.kv", "llm.sample"],
    system_prompt_addendum: "Help the user plan focus sessions.",
    user_message_prefix_template: "[Focus] {user_message}",
    tags: ["productivity", "focus"],
    ui: {
      bundle: { entry: "index.html", external_origins: ["https://api.example.com"] },
      views: [
        {
          name: "main",
          title: "Focus Flow",
          default: true,
          icon: "icons/main.svg",
          min_size: { w: 360, h: 480 },
          default_size: { w: 720, h: 640 },
        },
        { name: "stats", title: "Statistics", entry: "index.html#/stats", icon: "icons/stats.svg" },
        { name: "settings", title: "Settings", entry: "settings.html", single_instance: true },
      ],
      form_factors: ["desktop", "mobile"],
      host_api: {
        tools: ["required:*", "optional:*"],
        storage: ["get", "set", "delete", "list"],
        chat: ["write_message"],
        llm: ["complete"],
      },
      csp_overrides: { "img-src": ["https://images.example.com"] },
    },
  });
  write(root, "executas/focus-session-python/executa.json", {
    tool_id: "tool-dev-focus-python",
    type: "python",
  });
  write(
    root,
    "executas/focus-session-python/pyproject.toml",
    '[project]\nname = "focus-session"\nversion = "0.1.0"\n\n[project.scripts]\ntool-dev-focus-python = "focus_session_plugin:main"\n',
  );
  write(root, "executas/focus-session-python/focus_session_plugin.py", "def main():\n    pass\n");
  write(root, "executas/focus-session-node/executa.json", {
    tool_id: "tool-dev-focus-node",
    type: "node",
  });
  write(root, "executas/focus-session-node/package.json", {
    name: "focus-session-node",
    bin: { "tool-dev-focus-node": "focus_session_plugin.js" },
  });
  write(root, "executas/focus-session-node/focus_session_plugin.js", "process.stdin.resume();\n");
  write(root, "executas/focus-session-go/executa.json", {
    tool_id: "tool-dev-focus-go",
    type: "go",
    command: ["go", "run", "."],
  });
  write(root, "executas/focus-session-go/go.mod", "module example.com/focus\n\ngo 1.22\n");
  write(root, "executas/focus-session-go/main.go", "package main\n\nfunc main() {}\n");
  for (const name of ["focus-coach", "break-planner"]) {
    write(
      root,
      `executas/${name}/SKILL.md`,
      `---\nname: ${name}\ndescription: Helps with ${name.replace("-", " ")} during focus sessions.\nmetadata: {"matrix":{"emoji":"🎯","execution_mode":"prompt","category_name":"productivity"}}\n---\n\n# ${name}\n\n${"Guidance line.\n".repeat(40)}`,
    );
  }
  // Committed build folders with manifests inside, which every scan must skip.
  write(root, "node_modules/some-lib/manifest.json", { schema: 9 });
  write(root, "executas/focus-session-node/node_modules/dep/executa.json", { tool_id: "dep" });

  const icon =
    "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'><circle cx='12' cy='12' r='10'/></svg>\n";
  write(
    root,
    "bundle/index.html",
    '<!doctype html>\n<html><head><link rel="stylesheet" href="style.css"></head><body><script type="module" src="app.js"></script></body></html>\n',
  );
  write(
    root,
    "bundle/settings.html",
    '<!doctype html>\n<script type="module" src="app.js"></script>\n',
  );
  write(root, "bundle/style.css", "body{padding:env(safe-area-inset-top) 0 0}\n".repeat(200));
  write(root, "bundle/icons/main.svg", icon);
  write(root, "bundle/icons/stats.svg", icon);
  write(
    root,
    "bundle/app.js",
    [
      'import{connect as c}from"/static/anna-apps/_sdk/latest/index.js";',
      "const e=await c();",
      'await e.storage.get({key:"focus:last"});e.storage?.set({key:"focus:last",value:Date.now()});',
      'e.storage.list({prefix:"focus:"});e.storage.delete({key:"old"});',
      'await e.tools.invoke({tool_id:"x",args:{}});e.chat?.write_message?.({text:"done"});',
      'e.llm.complete({messages:[]});e.window.set_title("Focus");',
    ].join("\n") + "\n",
  );
  let vendor = "";
  for (let i = 0; vendor.length < BUNDLE_BYTES - 50_000; i++) vendor += vendorChunk(i);
  write(root, "bundle/assets/vendor-3f9a1c.js", vendor);
  return { bundleBytes: vendor.length };
}

interface ChildRun {
  wallMs: number;
  code: number | null;
  stdout: string;
}

function runChild(command: string, args: readonly string[], cwd: string): Promise<ChildRun> {
  return new Promise((resolvePromise, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { cwd, env: childEnv, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${command} ${args.join(" ")} timed out`));
    }, CHILD_TIMEOUT_MS);
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      if (code !== 0) {
        reject(new Error(`${args.join(" ")} exited ${code}: ${stderr || stdout}`));
        return;
      }
      resolvePromise({ wallMs: performance.now() - started, code, stdout });
    });
  });
}

/** The CLI runs the single-file bundle only while it is fresher than every build it came from. */
async function ensureFreshBundle(): Promise<string> {
  const loader = join(REPO, "packages/cli/dist/validate/load-validate.js");
  const { validateBundleIsFresh } = (await import(loader)) as {
    validateBundleIsFresh(env?: NodeJS.ProcessEnv): boolean;
  };
  if (validateBundleIsFresh(childEnv)) return "single-file bundle";
  await runChild(process.execPath, [join(REPO, "packages/cli/scripts/bundle-validate.mjs")], REPO);
  return validateBundleIsFresh(childEnv)
    ? "single-file bundle (rebuilt)"
    : "modules (the bundle is stale: a build ran meanwhile)";
}

async function main(): Promise<void> {
  const implementation = await ensureFreshBundle();
  const root = mkdtempSync(join(tmpdir(), "anna-bench-validate-"));
  try {
    const { bundleBytes } = generateApp(root);
    // The app must be valid, or the bench would time an early exit.
    const check = await runChild(process.execPath, [CLI, "validate", "--strict", "--json"], root);
    const report = JSON.parse(check.stdout) as {
      ok: boolean;
      errors: number;
      warnings: number;
      layers: { status: string }[];
    };
    if (!report.ok || report.layers.some((l) => l.status !== "passed")) {
      throw new Error(`the generated app does not pass validate --strict: ${check.stdout}`);
    }
    const cases = {
      "node -e 0 (baseline)": [process.execPath, ["-e", "0"]],
      "anna-app --version": [process.execPath, [CLI, "--version"]],
      "anna-app validate --strict": [process.execPath, [CLI, "validate", "--strict"]],
    } as const;
    const samples = new Map<string, number[]>(Object.keys(cases).map((k) => [k, []]));
    for (let round = 0; round < rounds; round++) {
      for (const [name, [command, args]] of Object.entries(cases)) {
        samples.get(name)?.push((await runChild(command, args, root)).wallMs);
      }
    }
    const summaries = new Map<string, Summary>([...samples].map(([k, v]) => [k, summarize(v)]));
    const baseline = summaries.get("node -e 0 (baseline)") as Summary;
    const cliStart = summaries.get("anna-app --version") as Summary;
    const validate = summaries.get("anna-app validate --strict") as Summary;
    const rows = [...summaries].map(([name, s]) => [
      name,
      formatSummary(s),
      `${formatNumber(s.median / baseline.median)}×`,
      `+${formatNumber(s.median - baseline.median)}`,
    ]);
    const pass = validate.median <= VALIDATE_TARGET_MS;
    process.stdout.write(
      [
        `anna-app validate --strict on a generated app: 3 executas, 2 skills, a ${(bundleBytes / 1024 / 1024).toFixed(1)} MB bundle (${report.warnings} warnings)`,
        `${rounds} interleaved rounds; ${cpus().length} CPUs, load average ${loadavg()[0]?.toFixed(2)}; validate runs from the ${implementation}`,
        "",
        renderTable(["case", "wall ms median (min–max)", "× node -e 0", "ms over node -e 0"], rows),
        "",
        `validate over the CLI's own start: +${formatNumber(validate.median - cliStart.median)} ms`,
        `target: validate --strict ≤ ${VALIDATE_TARGET_MS} ms wall → ${formatNumber(validate.median)} ms ${pass ? "PASS" : "MISS"}`,
        "",
      ].join("\n"),
    );
    if (jsonPath !== undefined) {
      writeJsonFile(jsonPath, {
        date: new Date().toISOString(),
        rounds,
        implementation,
        cpus: cpus().length,
        loadavg: loadavg(),
        bundleBytes,
        cases: Object.fromEntries(summaries),
        targetMs: VALIDATE_TARGET_MS,
        pass,
        suite: "validate",
        report: [
          {
            figure: "validate_strict_ms",
            label: "validate --strict, generated app",
            unit: "ms",
            ours: validate.median,
            baseline: { name: "node -e 0", value: baseline.median },
            better: "lower",
            comparison: describeAgainst(
              validate.median,
              { name: "node -e 0", value: baseline.median },
              "ms",
              "difference",
            ),
            target: `≤ ${VALIDATE_TARGET_MS} ms`,
            verdict: pass ? "PASS" : "MISS",
          },
          {
            figure: "cli_start_ms",
            label: "anna-app --version",
            unit: "ms",
            ours: cliStart.median,
            baseline: { name: "node -e 0", value: baseline.median },
            better: "lower",
            comparison: describeAgainst(
              cliStart.median,
              { name: "node -e 0", value: baseline.median },
              "ms",
              "difference",
            ),
            target: "",
            verdict: "info",
          },
        ] satisfies ReportRow[],
      });
    }
  } finally {
    if (values.keep === true) process.stderr.write(`kept ${root}\n`);
    else rmSync(root, { recursive: true, force: true });
  }
}

await main();
