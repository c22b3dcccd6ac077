// Switching a service family's mode while `executa dev` runs (the inspector's services panel,
// D-cli-xdev-36, D-cli-xdev-38): a mock-answer file, a saved account (real), off, or back to
// what the flags chose. The router reads its services object on every call, so replacing one
// family's entry there takes effect on the plugin's next reverse call, behind the same gates and
// budgets; calls in flight finish on the service they started on.
import path from "node:path";
import {
  MockFixture,
  MockFixtureError,
  createOfflineHostServices,
  type GrantPolicy,
  type HostServices,
  type SamplingService,
} from "@anna-ai/executa-host";
import type { BannerFamily } from "./services.js";

/**
 * The families whose offline service answers from a mock-answer file. For `web` the file answers
 * `web/search`; `web/fetch` stays live behind the SSRF guard, as with `--mock-web`.
 */
export const SWITCHABLE_FAMILIES = [
  "sampling",
  "agent",
  "image",
  "upload",
  "embeddings",
  "web",
] as const;
export type SwitchableFamily = (typeof SWITCHABLE_FAMILIES)[number];

export type ServiceChoice =
  | { mode: "mock"; fixture: string }
  | { mode: "off" }
  /** Your Nexus, through a saved account (`--app-slug`'s dev app unless `appSlug` names one). */
  | { mode: "real"; account?: string; appSlug?: string }
  /** What the run's flags chose. */
  | { mode: "initial" };

/** The families a saved account can answer (the real modes of `executa dev`'s flags). */
export const REAL_FAMILIES = ["sampling", "agent", "image", "upload"] as const;
type RealFamily = (typeof REAL_FAMILIES)[number];

/** What a real switch opens: the services of a saved account (open-real-copilot.ts). */
export interface OpenedReal {
  host: string;
  appSlug: string;
  sampling: unknown;
  agent: unknown;
  image: unknown;
  upload: unknown;
  /** The account's PAT: the trace, stderr and results must hide it from now on. */
  secretValues: string[];
}

export const SERVICE_SWITCH_ERROR = "ServiceSwitchError";

/** What a web mock file needs, named when a plugin's search finds no line for its query. */
export const WEB_FIXTURE_HINT = `a line {"ns":"web","method":"search","result":{"results":[…]}} in a --mock-web <fixture.jsonl> file`;

/** A switch refused (unknown family, a fixture that does not load): the family is unchanged. */
export class ServiceSwitchError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = SERVICE_SWITCH_ERROR;
  }
}

export interface ServiceSwitch {
  /** Serves `family` as chosen; resolves with its new banner label. */
  set(family: string, choice: ServiceChoice): Promise<string>;
  close(): Promise<void>;
}

export function serviceSwitch(options: {
  /** The router's own services object, changed in place. */
  services: Partial<HostServices>;
  /** The banner labels, changed in place (the inspector shows them). */
  summary: Record<BannerFamily, string>;
  grants: GrantPolicy;
  /** Where a relative fixture path starts. */
  cwd: string;
  /** `--sampling-unsupported-format`: a mock sampling file keeps refusing `json_schema`. */
  samplingUnsupportedFormat: boolean;
  wrapSampling?: (chosen: SamplingService | undefined) => SamplingService;
  /** Opens a saved account's services for a real switch; absent, a real switch is refused. */
  openReal?: (choice: { account?: string; appSlug?: string }) => Promise<OpenedReal>;
  /** Told the secrets a real switch brought (the redactors add them). */
  addSecrets?: (values: readonly string[]) => void;
}): ServiceSwitch {
  const { services, summary } = options;
  const initial = { ...services };
  const initialSummary = { ...summary };
  // The assemblies built for switched families, closed when replaced or at the end.
  const built = new Map<SwitchableFamily, () => Promise<void>>();

  async function replace(family: SwitchableFamily, service: unknown, close?: () => Promise<void>) {
    const previous = built.get(family);
    built.delete(family);
    if (close) built.set(family, close);
    let next = service as HostServices[SwitchableFamily] | undefined;
    if (family === "sampling" && options.wrapSampling && next !== initial.sampling) {
      next = options.wrapSampling(next as SamplingService | undefined);
    }
    Object.assign(services, { [family]: next });
    await previous?.();
  }

  // One opening per (account, app): switching agent after sampling reuses its session client.
  const opened = new Map<string, Promise<OpenedReal>>();
  async function switchToReal(
    family: SwitchableFamily,
    choice: { account?: string; appSlug?: string },
  ): Promise<string> {
    const realFamily = REAL_FAMILIES.find((f) => f === family);
    if (realFamily === undefined) {
      throw new ServiceSwitchError(
        `${family} has no real mode in executa dev; a saved account answers ${REAL_FAMILIES.join(", ")}`,
      );
    }
    if (options.openReal === undefined) {
      throw new ServiceSwitchError(`${family} stays as it was: this run cannot open an account`);
    }
    const key = `${choice.account ?? ""}\n${choice.appSlug ?? ""}`;
    let opening = opened.get(key);
    if (opening === undefined) {
      opening = options.openReal(choice);
      opened.set(key, opening);
    }
    let real: OpenedReal;
    try {
      real = await opening;
    } catch (error) {
      opened.delete(key);
      const reason = error instanceof Error ? error.message : String(error);
      throw new ServiceSwitchError(`${family} stays as it was: ${reason}`, { cause: error });
    }
    options.addSecrets?.(real.secretValues);
    await replace(family, real[realFamily as RealFamily]);
    summary[family] = `real (${real.host}, app ${real.appSlug}, switched)`;
    return summary[family];
  }

  return {
    async set(name, choice) {
      const family = SWITCHABLE_FAMILIES.find((f) => f === name);
      if (family === undefined) {
        throw new ServiceSwitchError(
          `${JSON.stringify(name)} cannot be switched here; pick one of ${SWITCHABLE_FAMILIES.join(", ")} (storage has its own panel)`,
        );
      }
      if (choice.mode === "initial") {
        await replace(family, initial[family]);
        summary[family] = initialSummary[family];
        return summary[family];
      }
      if (choice.mode === "real") return switchToReal(family, choice);
      let fixture: MockFixture | undefined;
      if (choice.mode === "mock") {
        try {
          fixture = await MockFixture.load(path.resolve(options.cwd, choice.fixture));
        } catch (error) {
          const reason =
            error instanceof MockFixtureError || error instanceof Error
              ? error.message
              : String(error);
          throw new ServiceSwitchError(`${family} stays as it was: ${reason}`, { cause: error });
        }
      }
      const mode = fixture ? { mode: "mock" as const, fixture } : { mode: "off" as const };
      const assembly = createOfflineHostServices({
        grants: options.grants,
        storage: { mode: "off", reason: "unused" },
        web: family === "web" && fixture ? { fixture, fixtureHint: WEB_FIXTURE_HINT } : false,
        ...(family === "sampling"
          ? {
              sampling: fixture
                ? { ...mode, unsupportedFormat: options.samplingUnsupportedFormat }
                : mode,
            }
          : family === "web"
            ? {}
            : { [family]: mode }),
      });
      await replace(family, assembly.services[family], assembly.close);
      const label =
        choice.mode === "mock" ? `mock (${choice.fixture}, switched)` : "off (switched)";
      summary[family] =
        family === "web" && choice.mode === "mock"
          ? `fetch live (SSRF-guarded), search ${label}`
          : label;
      return summary[family];
    },
    async close() {
      const all = [...built.values()];
      built.clear();
      await Promise.all(all.map((close) => close()));
    },
  };
}
