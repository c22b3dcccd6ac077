// `--grant` / `--no-grant` / `--storage-scopes`: the user's grants as the router's gate 3 sees
// them (H13, H14). Everything is granted by default so the mock modes just work; `--grant`
// narrows the set to the families named, `--no-grant` withdraws one.
import {
  GRANT_FAMILIES,
  WEB_GRANT_ALL,
  createStaticGrantPolicy,
  type GrantByFamily,
  type GrantFamily,
  type GrantPolicy,
} from "@anna-ai/executa-host";
import type { FlagValues } from "../cli/args.js";
import { usageError } from "../cli/exit-error.js";
import { STORAGE_SCOPE_NAMES } from "./service-flags.js";

const COMMAND = "executa dev";

export interface DevGrants {
  policy: GrantPolicy;
  granted: ReadonlySet<GrantFamily>;
  /** Scopes of the storage and files grants, as given (may include `app`). */
  storageScopes: readonly string[];
}

export function parseGrantFlags(flags: FlagValues): DevGrants {
  const only = readFamilies(flags.grant, "--grant");
  const withdrawn = readFamilies(flags["no-grant"], "--no-grant") ?? new Set<GrantFamily>();
  for (const family of withdrawn) {
    if (only?.has(family)) {
      throw usageError(`--grant ${family} and --no-grant ${family} contradict each other`, COMMAND);
    }
  }
  const granted = new Set<GrantFamily>(only ?? GRANT_FAMILIES);
  for (const family of withdrawn) granted.delete(family);

  const storageScopes = readScopes(flags["storage-scopes"]);
  // `app` is accepted for scripts written for the upstream tool, but the router adds it only
  // for invokes that come from an app (H14); executa dev's own invokes never do.
  const pluginScopes = storageScopes.filter(
    (s): s is "user" | "tool" => s === "user" || s === "tool",
  );
  const all: GrantByFamily = {
    sampling: {},
    agent: {},
    storage: { allowedScopes: pluginScopes },
    files: { allowedScopes: pluginScopes },
    image: { generate: true, edit: true },
    upload: {},
    embeddings: {},
    // The dev grant `anna-app dev` seeds too: search, fetch, advanced and the image methods.
    web: WEB_GRANT_ALL,
    // The token's providers are the declared OAuth credentials' (R66); nothing to narrow here.
    credentials: {},
  };
  const grants: Partial<GrantByFamily> = {};
  for (const family of granted) (grants as Record<string, unknown>)[family] = all[family];
  return { policy: createStaticGrantPolicy(grants), granted, storageScopes };
}

function readFamilies(
  value: FlagValues[string],
  flag: string,
): ReadonlySet<GrantFamily> | undefined {
  if (value === undefined) return undefined;
  const list = (Array.isArray(value) ? value : [String(value)]).flatMap((v) => v.split(","));
  const out = new Set<GrantFamily>();
  for (const raw of list) {
    const name = raw.trim();
    if (!(GRANT_FAMILIES as readonly string[]).includes(name)) {
      throw usageError(
        `${flag} '${name}' is not a reverse-RPC family; use one of ${GRANT_FAMILIES.join(", ")}`,
        COMMAND,
      );
    }
    out.add(name as GrantFamily);
  }
  return out;
}

function readScopes(value: FlagValues[string]): string[] {
  if (value === undefined) return [...STORAGE_SCOPE_NAMES];
  const list = String(value)
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
  if (list.length === 0) {
    throw usageError(
      `--storage-scopes needs at least one of ${STORAGE_SCOPE_NAMES.join(", ")}`,
      COMMAND,
    );
  }
  for (const scope of list) {
    if (!(STORAGE_SCOPE_NAMES as readonly string[]).includes(scope)) {
      throw usageError(
        `--storage-scopes '${scope}' is not a storage scope; use a comma-separated list of ${STORAGE_SCOPE_NAMES.join(", ")}`,
        COMMAND,
      );
    }
  }
  return [...new Set(list)];
}
