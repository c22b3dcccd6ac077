// Reverse requests when no router is attached (no router configured, or before `describe`
// finished): refuse them with the family's "not negotiated" code where it has one, else its
// "not granted" code (H13), so plugins see the same error they would for a missing capability.

import { RpcError } from "@anna-ai/jsonrpc";

interface Refusal {
  prefix: string;
  code: number;
  errorCode: string;
}

/** Longest prefix first; `agent/complete` is sampling-gated but agent-named, and both refuse. */
const REFUSALS: readonly Refusal[] = [
  { prefix: "sampling/", code: -32008, errorCode: "SAMPLING_NOT_NEGOTIATED" },
  { prefix: "agent/", code: -32041, errorCode: "AGENT_NOT_GRANTED" },
  { prefix: "storage/", code: -32021, errorCode: "STORAGE_NOT_GRANTED" },
  { prefix: "files/", code: -32021, errorCode: "STORAGE_NOT_GRANTED" },
  { prefix: "image/", code: -32107, errorCode: "IMAGE_NOT_NEGOTIATED" },
  { prefix: "host/uploadFile", code: -32210, errorCode: "UPLOAD_NOT_NEGOTIATED" },
  { prefix: "embeddings/", code: -32507, errorCode: "EMBED_NOT_NEGOTIATED" },
];

export function refuseReverseRequest(method: string, pluginLabel: string): RpcError {
  const refusal = REFUSALS.find((entry) => method.startsWith(entry.prefix));
  if (refusal === undefined) {
    return new RpcError(-32601, `Method not found: ${method}`, { errorCode: "METHOD_NOT_FOUND" });
  }
  return new RpcError(
    refusal.code,
    `${method} is not available to ${pluginLabel}: the host has no reverse-RPC router configured`,
    { errorCode: refusal.errorCode },
  );
}
