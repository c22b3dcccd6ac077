// The real sampling, agent, upload and image services of the dev tools, opened before the plugin
// or the app starts: the saved account (`selectAccount`), the dev app (`--app-slug`, the app's
// slug, or the one the server registers for the executa, D3), and the services that forward to
// its copilot endpoints with dev app sessions minted on demand. One opening per saved account:
// families that name the same account share its sessions.
import type {
  AgentService,
  ImageService,
  SamplingService,
  UploadService,
} from "@anna-ai/executa-host";
import { selectAccount } from "../account/select-account.js";
import { registerExecuta } from "../real-storage/open-real-storage.js";
import { CompleteSessions, DevAppSessions } from "./dev-app-sessions.js";
import { nexusAgentService } from "./nexus-agent.js";
import { nexusImageService } from "./nexus-image.js";
import { nexusSamplingService, type SessionKeyOf } from "./nexus-sampling.js";
import { nexusUploadService } from "./nexus-upload.js";

export interface RealCopilot {
  host: string;
  appSlug: string;
  sampling: SamplingService;
  agent: AgentService;
  upload: UploadService;
  image: ImageService;
  /** The PAT: transcripts, traces and logs must hide it (session tokens are JWTs, hidden anyway). */
  secretValues: string[];
}

export interface OpenRealCopilotOptions {
  env: NodeJS.ProcessEnv;
  /** `executa dev` or `dev`, for messages. */
  command: string;
  /** The saved account's host; default the current account. */
  account: string | undefined;
  /** `--app-slug` (executa dev) or the app's slug (anna-app dev). */
  appSlug: string | undefined;
  /** `executa dev`: the plugin's tool id; its dev app is registered when no slug is given. */
  toolId?: string;
  /**
   * Which shared `kind=complete` session a sampling, complete or upload call uses: `executa
   * dev` one per process, `anna-app dev` one per window (L7540).
   */
  keyOf?: SessionKeyOf;
  warn(line: string): void;
  fetch?: typeof fetch;
}

export async function openRealCopilot(options: OpenRealCopilotOptions): Promise<RealCopilot> {
  const selected = await selectAccount(options.env, {
    command: options.command,
    account: options.account,
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  });
  const { client, host } = selected;
  const pat = selected.saved?.pat ?? options.env.ANNA_APP_PAT;
  const appSlug =
    options.appSlug ??
    (options.toolId === undefined
      ? undefined
      : await registerExecuta(client, options.toolId, options.warn));
  if (appSlug === undefined) throw new Error("openRealCopilot needs an app slug or a tool id");
  const sessions = new DevAppSessions({
    client,
    appSlug,
    ...(options.toolId === undefined ? {} : { toolId: options.toolId }),
  });
  // At start, so a refused token or a server without dev sessions is one line, not a failed call.
  await sessions.list({ kind: "agent", includeExpired: false, limit: 1 });
  const complete = new CompleteSessions(sessions);
  const keyOf = options.keyOf ?? (() => "process");
  return {
    host,
    appSlug,
    sampling: nexusSamplingService({ client, sessions: complete, keyOf }),
    agent: nexusAgentService({
      client,
      sessions,
      complete,
      keyOf,
      ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    }),
    upload: nexusUploadService({ client, sessions: complete, keyOf }),
    image: nexusImageService({ client, sessions: complete, keyOf }),
    secretValues: pat === undefined ? [] : [pat],
  };
}
