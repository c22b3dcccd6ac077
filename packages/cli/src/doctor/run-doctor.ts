// `runDoctor`: every check at once (the probes run in parallel), in table order.
import {
  createDevTokenIssuer,
  createVersionProbe,
  createWhich,
  probeSupervisor,
  resolveSupervisorMode,
  SUPERVISOR_ENV,
  TOKEN_AUDIENCES,
  type SupervisorStatus,
  type VersionProbe,
} from "@anna-ai/executa-host";
import { checkSavedAccount } from "./account-check.js";
import type { CheckResult, DoctorReport } from "./check.js";
import {
  checkDevKey,
  checkGo,
  checkNexus,
  checkNode,
  checkNpm,
  checkPython,
  checkSupervisor,
  checkUv,
  type DevKeyProbe,
  type ToolFinder,
} from "./checks.js";

export interface DoctorOptions {
  /** The environment whose PATH is searched and which the probes run with. */
  env: NodeJS.ProcessEnv;
  /** Version of the Node running the CLI; default `process.versions.node`. */
  nodeVersion?: string;
  nodePath?: string;
  /** PATH lookup; default over `env.PATH`. */
  which?: (command: string) => string | undefined;
  versionOf?: VersionProbe;
  devKey?: DevKeyProbe;
  /** `--matrix-nexus-root`; default `env.ANNA_NEXUS_ROOT`. */
  nexusRoot?: string;
  /** Whether bubblewrap can supervise plugins; default: tried with `env`. */
  supervisor?: SupervisorStatus;
  /** The saved-account row; default: the credentials file of `env`, checked against its server. */
  account?: () => Promise<CheckResult>;
}

export async function runDoctor(options: DoctorOptions): Promise<DoctorReport> {
  const tools: ToolFinder = {
    which: options.which ?? createWhich({ env: options.env }),
    versionOf: options.versionOf ?? createVersionProbe(options.env),
  };
  const account = (options.account ?? (() => checkSavedAccount(options.env)))();
  const checks: CheckResult[] = await Promise.all([
    checkNode(options.nodeVersion ?? process.versions.node, options.nodePath ?? process.execPath),
    checkNpm(tools),
    checkPython(tools),
    checkUv(tools),
    checkGo(tools),
    checkDevKey(options.devKey ?? mintWithDevKey),
    checkNexus(options.nexusRoot ?? options.env.ANNA_NEXUS_ROOT),
    supervisorCheck(options),
  ]);
  // The account is a platform fact, not toolchain: its own section, never failing the doctor.
  return {
    ok: checks.every((c) => !c.required || c.status !== "fail"),
    checks,
    account: await account,
  };
}

/** What `executa dev` does per invoke: a fresh Ed25519 key, a token minted and verified. */
const mintWithDevKey: DevKeyProbe = async () => {
  const issuer = await createDevTokenIssuer();
  const binding = { userId: "doctor", toolId: "doctor", invokeId: "doctor" };
  const token = await issuer.mint({ audience: TOKEN_AUDIENCES.sampling, ...binding });
  await issuer.verify(token, TOKEN_AUDIENCES.sampling, binding);
  return "Ed25519";
};

/** The supervisor executa dev would use with this environment (ANNA_EXECUTA_SUPERVISOR included). */
function supervisorCheck(options: DoctorOptions): CheckResult {
  let mode;
  try {
    mode = resolveSupervisorMode(undefined, options.env);
  } catch (error) {
    return {
      id: "supervisor",
      label: "supervisor",
      required: false,
      status: "warn",
      found: "invalid",
      detail: error instanceof Error ? error.message : String(error),
    };
  }
  const status =
    mode === "none"
      ? { kind: "none" as const, reason: `turned off (${SUPERVISOR_ENV}=none)` }
      : (options.supervisor ?? probeSupervisor({ env: options.env }));
  return checkSupervisor(mode, status);
}
