import { z } from "zod";

/**
 * `executa.json` beside a plugin (L11577, real-world-plugins.md). `tool_id` is the identity
 * (H16); folders without one are warned about, not rejected, so it is optional here. Extra keys
 * (`transport`, …) pass through.
 */

export const BinaryAssetSchema = z.looseObject({
  url: z.string().min(1),
  sha256: z.string().nullish(),
  size: z.number().int().nonnegative().nullish(),
  entrypoint: z.string().nullish(),
  format: z.string().nullish(),
});
export type BinaryAsset = z.infer<typeof BinaryAssetSchema>;

export const BinaryArtifactSchema = z.looseObject({
  path: z.string().min(1),
  entrypoint: z.string().nullish(),
  format: z.string().nullish(),
});
export type BinaryArtifact = z.infer<typeof BinaryArtifactSchema>;

export const DistributionSchema = z.looseObject({
  type: z.string().nullish(),
  distribution_type: z.string().nullish(),
  package_name: z.string().nullish(),
  executable_name: z.string().nullish(),
  /** Platform key (`linux-x86_64`, `*`, …) → URL or asset (T31). */
  binary_urls: z.record(z.string(), z.union([z.string(), BinaryAssetSchema])).nullish(),
  binary_artifacts: z.record(z.string(), BinaryArtifactSchema).nullish(),
});
export type Distribution = z.infer<typeof DistributionSchema>;

/** `distribution` may also be `{profiles: {active: "binary", binary: {…}, local: {…}}}`. */
export const DistributionWithProfilesSchema = DistributionSchema.extend({
  profiles: z
    .looseObject({ active: z.string().nullish() })
    .catchall(z.union([DistributionSchema, z.string()]))
    .nullish(),
});

export const ExecutaJsonSchema = z.looseObject({
  tool_id: z.string().min(1).nullish(),
  /**
   * `python | node | go | binary` (L11577), or `mcp` for an MCP server the host runs through its
   * bridge; others are kept for the launcher to reject.
   */
  type: z.string().nullish(),
  /**
   * argv array, or a shell-style string as some projects write it (`go run ./cmd/x`). For
   * `type: "mcp"`: the stdio server's program, as MCP client configurations write it.
   */
  command: z.union([z.array(z.string()), z.string()]).nullish(),
  /** `type: "mcp"` only: arguments appended to `command`. */
  args: z.array(z.string()).nullish(),
  /** `type: "mcp"` only: environment the stdio server gets on top of the plugin's. */
  env: z.record(z.string(), z.string()).nullish(),
  /** `type: "mcp"` only: a Streamable HTTP server to connect to instead of starting one. */
  url: z.string().nullish(),
  /** Default `true`; `false` excludes the folder from discovery. */
  enabled: z.boolean().nullish(),
  /** Where the describe manifest lives, default `manifest.json` (T41). */
  manifest_file: z.string().nullish(),
  distribution: DistributionWithProfilesSchema.nullish(),
  _comment: z.unknown().nullish(),
});
export type ExecutaJson = z.infer<typeof ExecutaJsonSchema>;

export const EXECUTA_TYPES = Object.freeze(["python", "node", "go", "binary", "mcp"] as const);

/**
 * The distribution in force: the `profiles` entry named by `profile` (a CLI `--profile`), else
 * by `profiles.active`, else the flat fields.
 */
export function activeDistribution(json: ExecutaJson, profile?: string): Distribution | undefined {
  const distribution = json.distribution;
  if (distribution === undefined || distribution === null) return undefined;
  const profiles = distribution.profiles ?? undefined;
  const name = profile ?? profiles?.active ?? undefined;
  if (profiles !== undefined && name !== undefined) {
    const picked = profiles[name];
    if (typeof picked === "object" && picked !== null) return picked;
  }
  const flat: Distribution = { ...distribution };
  delete flat["profiles"];
  return flat;
}
