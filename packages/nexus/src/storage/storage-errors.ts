// Storage services throw catalogued JSON-RPC errors (the same ones a plugin sees over stdio);
// over REST they become NexusErrors named by the catalog's short name, keeping the JSON-RPC
// code and errorCode in the body so a forwarding client (executa dev, the Agent) can hand the
// plugin exactly the error the service raised.
import { STORAGE_ERRORS } from "@anna-ai/app-schema/errors";
import { RpcError } from "@anna-ai/jsonrpc";
import { type ErrorCode, NexusError } from "../core/errors.js";

const BY_RPC_CODE = new Map<number, ErrorCode>(
  Object.values(STORAGE_ERRORS).map((e) => [e.code, e.message as ErrorCode]),
);

/** A storage RpcError as the NexusError the REST layer answers with; anything else unchanged. */
export function toHttpError(err: unknown): unknown {
  if (!(err instanceof RpcError)) return err;
  const code = BY_RPC_CODE.get(err.code);
  if (code === undefined) return err;
  const data = (err.data ?? {}) as Record<string, unknown>;
  return new NexusError(code, err.message, {
    cause: err,
    details: { ...data, rpc_code: err.code },
  });
}
