// Which mode `executa dev` runs sampling, agent, image and upload in, and why (Reference
// L11605–11637). Off and mock come from their flags; real from `--app-slug` or the family's
// account flag; and for sampling and agent, with no flag at all, the implicit default: real
// when a saved account is usable (its dev app auto-registered), off otherwise. The reason goes
// into the one notice line printed at start, so nobody wonders where an answer came from.
import type { FlagValues } from "../cli/args.js";
import { ExitError } from "../cli/exit-error.js";
import { openRealCopilot, type RealCopilot } from "../real-copilot/open-real-copilot.js";

export const COPILOT_FAMILIES = ["sampling", "agent", "image", "upload"] as const;
export type CopilotFamilyName = (typeof COPILOT_FAMILIES)[number];

export interface FamilyMode {
  mode: "off" | "mock" | "real";
  /** Why, for the notice: `--mock-agent`, `a saved account and no agent flag`, … */
  why: string;
  /** The implicit default found a saved account but could not use it (worth a notice). */
  fellBack?: boolean;
  /** Real mode: the opened account, shared by the families that name the same one. */
  real?: RealCopilot;
}

interface Wanted {
  mode: "off" | "mock" | "real" | "implicit";
  why: string;
  /** The saved account's host this family forwards to; undefined = the current one. */
  account?: string;
}

const str = (v: FlagValues[string]) => (typeof v === "string" ? v : undefined);

function wanted(flags: FlagValues, family: CopilotFamilyName): Wanted {
  const accountFlag = `${family}-account`;
  const own = str(flags[accountFlag]);
  // Every family but sampling falls back to --sampling-account, then the current account.
  const account = own ?? (family === "sampling" ? undefined : str(flags["sampling-account"]));
  const withAccount = account === undefined ? {} : { account };
  if (flags[`no-${family}`] === true) return { mode: "off", why: `--no-${family}` };
  if (flags[`mock-${family}`] !== undefined) return { mode: "mock", why: `--mock-${family}` };
  if (own !== undefined) return { mode: "real", why: `--${accountFlag}`, ...withAccount };
  if (flags["app-slug"] !== undefined) return { mode: "real", why: "--app-slug", ...withAccount };
  if (family === "sampling" || family === "agent") {
    return {
      mode: "implicit",
      why: `a saved account and no ${family} flag`,
      ...withAccount,
    };
  }
  return { mode: "off", why: `the default; --app-slug <slug> forwards it to your Nexus` };
}

export async function resolveCopilotModes(options: {
  flags: FlagValues;
  env: NodeJS.ProcessEnv;
  toolId: string;
  command: string;
  warn(line: string): void;
}): Promise<Record<CopilotFamilyName, FamilyMode>> {
  const { flags } = options;
  const want = Object.fromEntries(COPILOT_FAMILIES.map((f) => [f, wanted(flags, f)])) as Record<
    CopilotFamilyName,
    Wanted
  >;
  // One opening per account; an implicit family never stops the start, an explicit one does.
  const opened = new Map<string, Promise<RealCopilot | Error>>();
  const open = (account: string | undefined) => {
    const key = account ?? "";
    let p = opened.get(key);
    if (p === undefined) {
      p = openRealCopilot({
        env: options.env,
        command: options.command,
        account,
        appSlug: str(flags["app-slug"]),
        toolId: options.toolId,
        warn: options.warn,
      }).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
      opened.set(key, p);
    }
    return p;
  };
  const out = {} as Record<CopilotFamilyName, FamilyMode>;
  for (const family of COPILOT_FAMILIES) {
    const w = want[family];
    if (w.mode === "off" || w.mode === "mock") {
      out[family] = { mode: w.mode, why: w.why };
      continue;
    }
    const real = await open(w.account);
    if (!(real instanceof Error)) {
      out[family] = { mode: "real", why: w.why, real };
      continue;
    }
    if (w.mode === "real") {
      const code = real instanceof ExitError ? real.exitCode : 2;
      throw new ExitError(code, `${w.why} (real ${family}): ${real.message}`, { cause: real });
    }
    const loggedOut = /^not logged in/.test(real.message);
    out[family] = {
      mode: "off",
      why: `no usable saved account: ${firstClause(real.message)}; 'anna-app login' or --mock-${family}`,
      ...(loggedOut ? {} : { fellBack: true }),
    };
  }
  return out;
}

/** The first clause of a long reason, for a one-line notice. */
function firstClause(message: string): string {
  const cut = message.indexOf("; run ");
  return cut > 0 ? message.slice(0, cut) : message;
}

/** `sampling=real (…, why) agent=off (why) …`: the notice printed at start. */
export function modesNotice(modes: Record<CopilotFamilyName, FamilyMode>): string {
  return COPILOT_FAMILIES.map((f) => {
    const m = modes[f];
    const where = m.real === undefined ? "" : `${m.real.host}, app ${m.real.appSlug}: `;
    return `${f}=${m.mode} (${where}${m.why})`;
  }).join("  ");
}
