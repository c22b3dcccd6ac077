// Everything a deployment tunes, resolved once by main() from flags and environment and passed
// to createApp. Defaults are the embedded single-user-machine setup.
import { DEFAULT_DEVELOPER_TERMS } from "../auth/developer-terms.js";

export interface NexusConfig {
  /** e.g. `https://nexus.example.com`; when set it is the only origin allowed besides loopback. */
  publicOrigin: string | undefined;
  /** Trust `X-Forwarded-For` / `X-Forwarded-Proto` (behind a reverse proxy). */
  trustProxy: boolean;
  /** Cap on request bodies of the JSON API. */
  maxBodyBytes: number;
  sessionTtlMs: number;
  patTtlMs: number;
  deviceCodeTtlMs: number;
  /** Current Developer Terms of Service version (S3: activation must accept exactly this). */
  developerTosVersion: string;
  /** Their text (Markdown), served at GET /api/v1/developer/terms for the activation card. */
  developerTerms: string;
  /** Self-serve Verified Developer activation (R3); when off, only an admin grants it. */
  selfServeDeveloper: boolean;
  /** How long an email verification link works. */
  emailVerificationTtlMs: number;
  /** The poll interval the device flow advertises. */
  devicePollIntervalS: number;
  /** Dev app sessions (`…/dev/session/mint`): idle deadline, slid by each refresh (L7638). */
  devSessionIdleMs: number;
  /** …and the hard deadline nothing slides (L7638: 24 h). */
  devSessionMaxMs: number;
  /** Executa binary uploads (real-world-cli.md §B, spec L2505–2560). */
  binaries: {
    /** Largest artifact per platform (1 GiB, as the published CLI checks locally). */
    maxArtifactBytes: number;
    /** The part size B3 plans with; B4 refuses a part of any other length. */
    partBytes: number;
    /** Lifetime of a B1/B2 upload token (L2546: 15 minutes). */
    uploadTokenTtlMs: number;
    /** An upload not finalized by then is gone, with its parts. */
    uploadTtlMs: number;
    /** Issuers whose OIDC id-tokens B2 accepts (`--oidc-issuer`, ANNA_OIDC_ISSUERS). */
    oidcIssuers: string[];
    /** The audience B2 requires (the published CLI asks GitHub for `anna-aps`). */
    oidcAudience: string;
  };
  /**
   * The LLM gateway's quota per user over a rolling window (`ANNA_LLM_QUOTA_TOKENS`,
   * `ANNA_LLM_QUOTA_IMAGES`, `ANNA_LLM_QUOTA_WINDOW_HOURS`); unset limits do not apply.
   */
  llmQuota: {
    tokensPerUser: number | undefined;
    imagesPerUser: number | undefined;
    windowMs: number;
  };
  /** The app registry's fair-use and upload limits (R5, real-world-cli.md §3.1 and 0.1.47 §C). */
  appLimits: AppLimits;
  rateLimits: {
    /** Failed sign-ins per email (and per client address, ×5) in one window. */
    signinFailures: number;
    signinWindowMs: number;
    /** Polls per device code in one window. */
    devicePolls: number;
    devicePollWindowMs: number;
    /** Device-flow starts per client address in one window. */
    deviceStarts: number;
    deviceStartWindowMs: number;
    /** Token mints (session mint/refresh, storage mint) per user in one window. */
    mints: number;
    mintWindowMs: number;
    /** Verification mails a user may ask for in one window. */
    verificationMails: number;
    verificationMailWindowMs: number;
  };
}

export interface AppLimits {
  /** Apps a developer may create per day. */
  createsPerDay: number;
  /** Non-archived apps a developer may own. */
  activeApps: number;
  /** Review submissions per developer per day. */
  submissionsPerDay: number;
  /** Files in one UI bundle (the CLI's 1–2000). */
  bundleMaxFiles: number;
  bundleMaxFileBytes: number;
  bundleMaxTotalBytes: number;
  /** Logo and screenshot images (A5: 2 MB for the logo). */
  logoMaxBytes: number;
  screenshotMaxBytes: number;
  /**
   * Whether a new version of a live (PUBLISHED) app waits for an admin's release review before
   * it goes live (spec 8189–8191: "depending on deployment configuration"); off by default.
   */
  releaseReview: boolean;
}

const DAY_MS = 86_400_000;
const MIB = 1024 * 1024;

export const DEFAULT_CONFIG: NexusConfig = {
  publicOrigin: undefined,
  trustProxy: false,
  maxBodyBytes: 1024 * 1024,
  sessionTtlMs: 30 * DAY_MS,
  patTtlMs: 90 * DAY_MS,
  deviceCodeTtlMs: 10 * 60_000,
  devicePollIntervalS: 5,
  emailVerificationTtlMs: DAY_MS,
  devSessionIdleMs: 30 * 60_000,
  devSessionMaxMs: DAY_MS,
  developerTosVersion: "2026-01",
  developerTerms: DEFAULT_DEVELOPER_TERMS,
  selfServeDeveloper: true,
  binaries: {
    maxArtifactBytes: 1024 ** 3,
    partBytes: 8 * 1024 * 1024,
    uploadTokenTtlMs: 15 * 60_000,
    uploadTtlMs: DAY_MS,
    oidcIssuers: ["https://token.actions.githubusercontent.com"],
    oidcAudience: "anna-aps",
  },
  llmQuota: { tokensPerUser: undefined, imagesPerUser: undefined, windowMs: DAY_MS },
  appLimits: {
    createsPerDay: 10,
    activeApps: 20,
    submissionsPerDay: 5,
    bundleMaxFiles: 2000,
    bundleMaxFileBytes: 50 * MIB,
    bundleMaxTotalBytes: 1024 * MIB,
    logoMaxBytes: 2 * MIB,
    screenshotMaxBytes: 5 * MIB,
    releaseReview: false,
  },
  rateLimits: {
    signinFailures: 5,
    signinWindowMs: 15 * 60_000,
    devicePolls: 30,
    devicePollWindowMs: 60_000,
    deviceStarts: 20,
    deviceStartWindowMs: 60_000,
    mints: 120,
    mintWindowMs: 60_000,
    verificationMails: 5,
    verificationMailWindowMs: 3_600_000,
  },
};

export function resolveConfig(
  overrides: Partial<Omit<NexusConfig, "binaries">> & {
    binaries?: Partial<NexusConfig["binaries"]>;
  } = {},
): NexusConfig {
  return {
    ...DEFAULT_CONFIG,
    ...overrides,
    binaries: { ...DEFAULT_CONFIG.binaries, ...overrides.binaries },
    appLimits: { ...DEFAULT_CONFIG.appLimits, ...overrides.appLimits },
    llmQuota: { ...DEFAULT_CONFIG.llmQuota, ...overrides.llmQuota },
    rateLimits: { ...DEFAULT_CONFIG.rateLimits, ...overrides.rateLimits },
  };
}
