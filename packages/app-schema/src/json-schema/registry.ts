import { z } from "zod";
import { ExecutaJsonSchema } from "../executa/executa-json.js";
import { HealthResultSchema } from "../executa/health.js";
import { InitializeParamsSchema, InitializeResultSchema } from "../executa/initialize.js";
import {
  IncomingInvokeParamsSchema,
  InvokeParamsSchema,
  InvokeResultSchema,
} from "../executa/invoke.js";
import {
  FileTransportPointerSchema,
  JsonRpcErrorResponseSchema,
  JsonRpcNotificationSchema,
  JsonRpcRequestSchema,
  JsonRpcSuccessResponseSchema,
} from "../executa/jsonrpc.js";
import { ExecutaManifestSchema } from "../executa/manifest.js";
import { ProgressParamsSchema } from "../executa/progress.js";
import type { ReverseMethod } from "../executa/reverse-methods.js";
import { REVERSE_METHOD_SCHEMAS } from "../executa/reverse-schemas.js";

/** Base of every `$id`; the path segment is the schema version, bumped on breaking changes. */
export const JSON_SCHEMA_ID_BASE = "https://schemas.anna-ai.dev/executa/v1/";

/**
 * File stems whose names do not follow from the method name (see {@link reverseStem}); kept as
 * first published so the `$id`s stay stable. Both image methods answer with one result schema.
 */
const REVERSE_STEM_EXCEPTIONS: Readonly<
  Partial<Record<ReverseMethod, { params?: string; result?: string }>>
> = Object.freeze({
  "image/generate": { result: "image-result" },
  "image/edit": { result: "image-result" },
  "host/uploadFile": { params: "host-upload-params", result: "host-upload-result" },
});

/** `files/upload_begin` → `files-upload-begin`; `web/image_search` → `web-image-search`. */
function reverseStem(method: ReverseMethod): string {
  return method
    .replace(/([a-z])([A-Z])/g, "$1-$2")
    .replace(/[/._]/g, "-")
    .toLowerCase();
}

/** The params and result schema of every reverse method, read from the one method table. */
function reverseMethodJsonSchemas(): Record<string, z.ZodType> {
  const out: Record<string, z.ZodType> = {};
  for (const [method, schemas] of Object.entries(REVERSE_METHOD_SCHEMAS) as [
    ReverseMethod,
    (typeof REVERSE_METHOD_SCHEMAS)[ReverseMethod],
  ][]) {
    const stem = reverseStem(method);
    const exception = REVERSE_STEM_EXCEPTIONS[method];
    out[exception?.params ?? `${stem}-params`] = schemas.params;
    out[exception?.result ?? `${stem}-result`] = schemas.result;
  }
  return out;
}

/** Top-level Executa schemas exported as JSON Schema, by file stem. */
export const EXECUTA_JSON_SCHEMAS: Readonly<Record<string, z.ZodType>> = Object.freeze({
  "jsonrpc-request": JsonRpcRequestSchema,
  "jsonrpc-notification": JsonRpcNotificationSchema,
  "jsonrpc-success-response": JsonRpcSuccessResponseSchema,
  "jsonrpc-error-response": JsonRpcErrorResponseSchema,
  "file-transport-pointer": FileTransportPointerSchema,
  "executa-manifest": ExecutaManifestSchema,
  "executa-json": ExecutaJsonSchema,
  "initialize-params": InitializeParamsSchema,
  "initialize-result": InitializeResultSchema,
  "invoke-params": InvokeParamsSchema,
  "incoming-invoke-params": IncomingInvokeParamsSchema,
  "invoke-result": InvokeResultSchema,
  "health-result": HealthResultSchema,
  "progress-params": ProgressParamsSchema,
  ...reverseMethodJsonSchemas(),
});

function titleOf(stem: string): string {
  return stem
    .split("-")
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join("");
}

/**
 * Every exported schema as a JSON Schema document (draft 2020-12) keyed by file name. Input
 * side: what may appear on the wire. Refinements zod cannot express (e.g. "maxTokens or
 * max_tokens") are not in the documents.
 */
export function generateExecutaJsonSchemas(): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const [stem, schema] of Object.entries(EXECUTA_JSON_SCHEMAS)) {
    const { $schema, ...body } = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" });
    out[`${stem}.json`] = {
      $schema,
      $id: `${JSON_SCHEMA_ID_BASE}${stem}.json`,
      title: titleOf(stem),
      ...body,
    };
  }
  return out;
}
