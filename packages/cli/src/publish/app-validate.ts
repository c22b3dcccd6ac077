// Before an app is sent anywhere it passes the checks of `anna-app validate` (the same layers
// the server's validate-manifest runs): an error is exit 4 naming the first finding and the
// command that lists them all. Warnings do not block a publish.
import path from "node:path";
import { EXIT_INVALID_PROJECT, ExitError } from "../cli/exit-error.js";
import { ValidateConfigError, validateProject } from "../validate/run.js";

export async function requireValidApp(
  dir: string,
  manifestFile: string,
  bundleDir: string | undefined,
): Promise<void> {
  let report;
  try {
    report = await validateProject({
      cwd: dir,
      dir,
      manifest: manifestFile,
      ...(bundleDir === undefined ? {} : { bundle: bundleDir }),
    });
  } catch (error) {
    if (error instanceof ValidateConfigError) {
      throw new ExitError(EXIT_INVALID_PROJECT, error.message, { cause: error });
    }
    throw error;
  }
  if (report.ok) return;
  const first = report.diagnostics.find((d) => d.severity === "error")!;
  const where = `${first.file}${first.line > 0 ? `:${first.line}:${first.column}` : ""}`;
  const more = report.errors > 1 ? ` (and ${report.errors - 1} more)` : "";
  const rel = path.relative(process.cwd(), dir) || ".";
  throw new ExitError(
    EXIT_INVALID_PROJECT,
    `${where}: ${first.message}${more}; nothing was sent — run \`anna-app validate ${rel}\` for every finding`,
  );
}
