// OIDC trusted publishers (spec L2548–2580, B6–B8): a registration says "runs of this workflow
// file in this repository (and, when set, this GitHub Environment) may upload this tool's
// binaries". Any branch or tag of the workflow matches (PyPI semantics). Repository and
// environment names compare case-insensitively, as GitHub treats them.
import { NexusError } from "../../core/errors.js";
import type { OidcClaims } from "./oidc.js";
import type { TrustedPublisher } from "./binary-store.js";

/** More registrations than this per tool is a mistake, not a need. */
export const MAX_PUBLISHERS_PER_TOOL = 20;

const REPOSITORY = /^[A-Za-z0-9_.-]{1,100}\/[A-Za-z0-9_.-]{1,100}$/;
const WORKFLOW_FILE = /^[A-Za-z0-9_.-]{1,200}\.ya?ml$/;

export interface PublisherInput {
  repository: string;
  workflow: string;
  environment?: string | undefined;
}

/** Checks a registration and normalises `.github/workflows/x.yml` to its file name `x.yml`. */
export function normalisePublisher(input: PublisherInput): {
  repository: string;
  workflow: string;
  environment: string | null;
} {
  const repository = input.repository.trim();
  if (!REPOSITORY.test(repository)) {
    throw new NexusError(
      "validation_failed",
      `repository ${JSON.stringify(input.repository)} must be owner/repo, e.g. acme/weather-tool`,
    );
  }
  const workflow = input.workflow.trim().replace(/^\.github\/workflows\//, "");
  if (!WORKFLOW_FILE.test(workflow)) {
    throw new NexusError(
      "validation_failed",
      `workflow ${JSON.stringify(input.workflow)} must be a workflow file name under .github/workflows, e.g. publish.yml`,
    );
  }
  const env = input.environment?.trim();
  if (env !== undefined && (env.length === 0 || env.length > 255)) {
    throw new NexusError(
      "validation_failed",
      "environment must be 1–255 characters (omit it to allow any environment)",
    );
  }
  return { repository, workflow, environment: env ?? null };
}

const lower = (s: string) => s.toLowerCase();

/** Whether the token's claims are a run this registration allows. */
export function publisherMatches(p: TrustedPublisher, claims: OidcClaims): boolean {
  if (lower(claims.repository) !== lower(p.repository)) return false;
  const expected = lower(`${p.repository}/.github/workflows/${p.workflow}`);
  const workflowOk = claims.workflowRefs.some((ref) => {
    const at = ref.indexOf("@");
    const path = at === -1 ? ref : ref.slice(0, at);
    // The repository part is case-insensitive; the file name is compared as GitHub stores it.
    const slash = path.indexOf("/.github/workflows/");
    if (slash === -1) return false;
    return (
      lower(path.slice(0, slash)) === lower(p.repository) &&
      path.slice(slash + "/.github/workflows/".length) === p.workflow &&
      lower(path) === expected
    );
  });
  if (!workflowOk) return false;
  return p.environment === null || lower(claims.environment ?? "") === lower(p.environment);
}
