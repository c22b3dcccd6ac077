import { z } from "zod";

/**
 * JSON-RPC 2.0 envelope as it crosses stdio (T1, T10). Ids are strings or integers and must be
 * echoed with their type: a stringified integer id leaves the plugin waiting forever
 * (real-world-plugins.md).
 */
export const JsonRpcIdSchema = z.union([z.string(), z.number().int()]);
export type JsonRpcId = z.infer<typeof JsonRpcIdSchema>;

/** `error.data` carries the symbolic name in `errorCode` (H12); everything else passes through. */
export const JsonRpcErrorDataSchema = z.looseObject({ errorCode: z.string().optional() });
export type JsonRpcErrorData = z.infer<typeof JsonRpcErrorDataSchema>;

export const JsonRpcErrorObjectSchema = z.looseObject({
  code: z.number().int(),
  message: z.string(),
  data: z.unknown().optional(),
});
export type JsonRpcErrorObject = z.infer<typeof JsonRpcErrorObjectSchema>;

export const JsonRpcRequestSchema = z.looseObject({
  jsonrpc: z.literal("2.0"),
  id: JsonRpcIdSchema,
  method: z.string().min(1),
  params: z.unknown().optional(),
});
export type JsonRpcRequest = z.infer<typeof JsonRpcRequestSchema>;

/** No `id`: `executa/progress` is the one the host expects (T29). */
export const JsonRpcNotificationSchema = z.looseObject({
  jsonrpc: z.literal("2.0"),
  method: z.string().min(1),
  params: z.unknown().optional(),
});
export type JsonRpcNotification = z.infer<typeof JsonRpcNotificationSchema>;

export const JsonRpcSuccessResponseSchema = z.looseObject({
  jsonrpc: z.literal("2.0"),
  id: JsonRpcIdSchema,
  result: z.unknown(),
});
export type JsonRpcSuccessResponse = z.infer<typeof JsonRpcSuccessResponseSchema>;

/** `id` is `null` (or, from the Go sample, absent) when the request could not be parsed (T1). */
export const JsonRpcErrorResponseSchema = z.looseObject({
  jsonrpc: z.literal("2.0"),
  id: z.union([JsonRpcIdSchema, z.null()]).optional(),
  error: JsonRpcErrorObjectSchema,
});
export type JsonRpcErrorResponse = z.infer<typeof JsonRpcErrorResponseSchema>;

/**
 * Large-frame pointer (T2, H3): the real frame is in a temp file. It can stand for a response
 * *or* a reverse request, so it has no `method` and is resolved before classification.
 */
export const FileTransportPointerSchema = z.looseObject({
  jsonrpc: z.literal("2.0"),
  id: z.union([JsonRpcIdSchema, z.null()]).optional(),
  __file_transport: z.string().min(1),
});
export type FileTransportPointer = z.infer<typeof FileTransportPointerSchema>;

export const JsonRpcResponseSchema = z.union([
  JsonRpcSuccessResponseSchema,
  JsonRpcErrorResponseSchema,
]);
export type JsonRpcResponse = z.infer<typeof JsonRpcResponseSchema>;

/** Any single frame. Classify by shape: `method` + `id` request, `method` alone notification. */
export const JsonRpcMessageSchema = z.union([
  JsonRpcRequestSchema,
  JsonRpcNotificationSchema,
  JsonRpcSuccessResponseSchema,
  JsonRpcErrorResponseSchema,
  FileTransportPointerSchema,
]);
export type JsonRpcMessage = z.infer<typeof JsonRpcMessageSchema>;

/** The protocol version the host offers, exactly (H7): plugins compare the string. */
export const PROTOCOL_VERSION = "2.0";
/** What a host assumes when `initialize` fails or times out (T4). */
export const LEGACY_PROTOCOL_VERSION = "1.1";
