import { z } from "zod";

/**
 * `initialize` (T4, L1123–L1176, H7). Offered with `protocolVersion: "2.0"` exactly. Capability
 * maps travel under `capabilities` (Lifecycle page), `client_capabilities` (Image page, the
 * upstream dev tool, many plugins) or, from the Reference, `host_capabilities`; every reader
 * here accepts all of them.
 */

const CapabilityMapSchema = z.record(z.string(), z.unknown());

/** What the host can do, as our host offers it (L1130–L1142). */
export const HostSamplingOfferSchema = z.object({
  modalities: z.array(z.string()).optional(),
  maxTokensPerCall: z.number().int().positive().optional(),
  maxCallsPerInvoke: z.number().int().positive().optional(),
  responseFormat: z.array(z.enum(["json_object", "json_schema"])).optional(),
});
export type HostSamplingOffer = z.infer<typeof HostSamplingOfferSchema>;

export const PeerInfoSchema = z.looseObject({
  name: z.string().nullish(),
  version: z.string().nullish(),
});
export type PeerInfo = z.infer<typeof PeerInfoSchema>;

export const InitializeParamsSchema = z.object({
  protocolVersion: z.string(),
  clientInfo: PeerInfoSchema.optional(),
  /** The upstream developer tool's spelling. */
  client_info: PeerInfoSchema.optional(),
  capabilities: z
    .looseObject({
      sampling: HostSamplingOfferSchema.optional(),
      /** The host reads `__file_transport` frames (T2). */
      fileTransport: z.boolean().optional(),
    })
    .optional(),
  client_capabilities: CapabilityMapSchema.optional(),
  /** Reference form: `{"llm.sample": true}` (R19). */
  host_capabilities: CapabilityMapSchema.optional(),
});
export type InitializeParams = z.infer<typeof InitializeParamsSchema>;

/** What the plugin answers. `serverInfo` or `server_info`; capabilities under either key (H7). */
export const InitializeResultSchema = z.looseObject({
  protocolVersion: z.string().nullish(),
  serverInfo: PeerInfoSchema.nullish(),
  server_info: PeerInfoSchema.nullish(),
  capabilities: CapabilityMapSchema.nullish(),
  client_capabilities: CapabilityMapSchema.nullish(),
});
export type InitializeResult = z.infer<typeof InitializeResultSchema>;

/** The one shape the host works with after the handshake. */
export interface NormalizedInitializeResult {
  protocolVersion: string;
  serverInfo?: PeerInfo;
  /** Union of `capabilities` and `client_capabilities`: the families the plugin will use. */
  capabilities: Record<string, unknown>;
}

/**
 * Merges the spellings. A missing `protocolVersion` is read as the version offered: plugins that
 * answer at all are v2 (T4).
 */
export function normalizeInitializeResult(
  result: InitializeResult,
  offeredVersion = "2.0",
): NormalizedInitializeResult {
  const serverInfo = result.serverInfo ?? result.server_info;
  return {
    protocolVersion: result.protocolVersion ?? offeredVersion,
    ...(serverInfo !== undefined && serverInfo !== null ? { serverInfo } : {}),
    capabilities: { ...result.capabilities, ...result.client_capabilities },
  };
}

export interface NormalizedInitializeParams {
  protocolVersion: string;
  clientInfo?: PeerInfo;
  /** Everything the host offered, merged from the three spellings. */
  capabilities: Record<string, unknown>;
}

/** For plugins (the SDK): one view of what any host sent. */
export function normalizeInitializeParams(params: InitializeParams): NormalizedInitializeParams {
  const clientInfo = params.clientInfo ?? params.client_info;
  return {
    protocolVersion: params.protocolVersion,
    ...(clientInfo !== undefined ? { clientInfo } : {}),
    capabilities: {
      ...params.host_capabilities,
      ...params.client_capabilities,
      ...params.capabilities,
    },
  };
}
