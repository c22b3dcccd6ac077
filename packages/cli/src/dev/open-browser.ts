// `--open`: the dashboard in the developer's browser. `$BROWSER` wins, as for git, man and
// Python's webbrowser (and so tests and remote shells can say what "a browser" is): a command
// line, with `%s` replaced by the URL or the URL appended. Otherwise the platform's opener.
// A browser that cannot start is a hint on stderr, never a reason to stop the harness.
import { spawn } from "node:child_process";
import { shellSplit } from "@anna-ai/executa-host";

export function browserCommand(
  url: string,
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
): string[] {
  const custom = env.BROWSER?.trim();
  if (custom !== undefined && custom !== "") {
    const argv = shellSplit(custom);
    return argv.some((arg) => arg.includes("%s"))
      ? argv.map((arg) => arg.replaceAll("%s", url))
      : [...argv, url];
  }
  if (platform === "darwin") return ["open", url];
  if (platform === "win32") return ["explorer", url];
  return ["xdg-open", url];
}

/** Starts the browser and lets it live on; `warn` hears when it could not start or failed. */
export function openBrowser(
  url: string,
  env: NodeJS.ProcessEnv,
  warn: (message: string) => void,
): void {
  let argv: string[];
  try {
    argv = browserCommand(url, env);
  } catch (error) {
    warn(`--open: $BROWSER is not a command line (${(error as Error).message}); open ${url}`);
    return;
  }
  const [command = "", ...args] = argv;
  const hint = (why: string) => warn(`--open: ${command} ${why}; open ${url} in a browser`);
  const child = spawn(command, args, { stdio: "ignore", detached: true });
  child.on("error", (error: NodeJS.ErrnoException) =>
    hint(error.code === "ENOENT" ? "was not found (set $BROWSER)" : `failed: ${error.message}`),
  );
  child.on("exit", (code) => {
    if (code !== null && code !== 0) hint(`exited with code ${code}`);
  });
  child.unref();
}
