// The exact commands to run after `executa init`, per template.
import path from "node:path";
import type { ExecutaTemplate } from "./templates.js";

/** The invoke every template answers straight away (after its build step for ts). */
export const HELLO_INVOKE = `anna-app executa dev --dir . --invoke hello --args '{"name":"Ada"}'`;

const TEMPLATE_STEPS: Readonly<Record<ExecutaTemplate, readonly string[]>> = {
  python: ["python3 -m unittest", HELLO_INVOKE],
  node: ["npm test", HELLO_INVOKE],
  go: ["go test ./...", HELLO_INVOKE],
  // The host never installs or builds (R167): the SDK must be installed and src/ compiled first.
  ts: ["npm install", "npm run build", "npm test", HELLO_INVOKE],
};

/** `cd` into the project (relative to where init ran), then the template's commands. */
export function nextSteps(template: ExecutaTemplate, dir: string, cwd: string): string[] {
  const relative = path.relative(cwd, dir);
  const steps = [...TEMPLATE_STEPS[template]];
  if (relative !== "")
    steps.unshift(`cd ${shellQuote(relative.startsWith("..") ? dir : relative)}`);
  return steps;
}

/** Quotes a path for POSIX shells when it holds anything beyond safe characters. */
export function shellQuote(value: string): string {
  return /^[A-Za-z0-9_./@%+=:,-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}
