// The exact commands to run after `anna-app init`, per template, from where init ran.
import path from "node:path";
import { shellQuote } from "../executa-init/next-steps.js";
import type { ExecutaTemplate } from "../executa-init/templates.js";

/** The executa's own checks, run from its folder. ts: the host never installs or builds (R167). */
export const EXECUTA_CHECKS: Readonly<Record<ExecutaTemplate, readonly string[]>> = {
  python: ["python3 -m unittest"],
  node: ["npm test"],
  go: ["go test ./..."],
  ts: ["npm install", "npm run build", "npm test"],
};

/** Templates whose entry (`dist/main.js`) exists only after their build step. */
export const EXECUTA_BUILDS: Readonly<Record<ExecutaTemplate, boolean>> = {
  python: false,
  node: false,
  go: false,
  ts: true,
};

/** The executa's checks as one line run from the project folder, e.g. in a README. */
export function executaCheckLine(template: ExecutaTemplate, executaDir: string): string {
  return `(cd ${shellQuote(executaDir)} && ${EXECUTA_CHECKS[template].join(" && ")})`;
}

export function appNextSteps(options: {
  dir: string;
  cwd: string;
  handle: string;
  executaTemplate: ExecutaTemplate;
}): string[] {
  const executaDir = `executas/${options.handle}`;
  const validate = "anna-app validate --strict";
  const checks = executaCheckLine(options.executaTemplate, executaDir);
  // validate resolves each executa as `anna-app dev` would start it, so a compiled executa is
  // built before it is validated.
  const steps = EXECUTA_BUILDS[options.executaTemplate] ? [checks, validate] : [validate, checks];
  steps.push(
    `anna-app executa dev --dir ${shellQuote(executaDir)} --invoke hello --args '{"name":"Ada"}'`,
    "npm install && npm test",
    // Last: it keeps running (the dashboard) until Ctrl-C.
    "anna-app dev",
  );
  const relative = path.relative(options.cwd, options.dir);
  if (relative !== "") {
    steps.unshift(`cd ${shellQuote(relative.startsWith("..") ? options.dir : relative)}`);
  }
  return steps;
}
