import { z } from "zod";
import {
  AgentCompleteParamsSchema,
  AgentCompleteResultSchema,
  AgentSessionCancelParamsSchema,
  AgentSessionCancelResultSchema,
  AgentSessionCreateParamsSchema,
  AgentSessionCreateResultSchema,
  AgentSessionDeleteParamsSchema,
  AgentSessionDeleteResultSchema,
  AgentSessionHistoryParamsSchema,
  AgentSessionHistoryResultSchema,
  AgentSessionListParamsSchema,
  AgentSessionListResultSchema,
  AgentSessionRefreshParamsSchema,
  AgentSessionRefreshResultSchema,
  AgentSessionRunParamsSchema,
  AgentSessionRunResultSchema,
} from "../executa/agent.js";
import {
  CredentialsGetTokenParamsSchema,
  CredentialsGetTokenResultSchema,
  CredentialsListAccountsParamsSchema,
  CredentialsListAccountsResultSchema,
} from "../executa/credentials.js";
import {
  EmbeddingsCreateParamsSchema,
  EmbeddingsCreateResultSchema,
} from "../executa/embeddings.js";
import { ExecutaJsonSchema } from "../executa/executa-json.js";
import {
  FilesDeleteParamsSchema,
  FilesDeleteResultSchema,
  FilesDownloadUrlParamsSchema,
  FilesDownloadUrlResultSchema,
  FilesListParamsSchema,
  FilesListResultSchema,
  FilesUploadBeginParamsSchema,
  FilesUploadBeginResultSchema,
  FilesUploadCompleteParamsSchema,
  FilesUploadCompleteResultSchema,
} from "../executa/files.js";
import { HealthResultSchema } from "../executa/health.js";
import {
  ImageEditParamsSchema,
  ImageGenerateParamsSchema,
  ImageResultSchema,
} from "../executa/image.js";
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
import {
  SamplingCreateMessageParamsSchema,
  SamplingCreateMessageResultSchema,
} from "../executa/sampling.js";
import {
  StorageDeleteParamsSchema,
  StorageDeleteResultSchema,
  StorageGetParamsSchema,
  StorageGetResultSchema,
  StorageListParamsSchema,
  StorageListResultSchema,
  StorageSetParamsSchema,
  StorageSetResultSchema,
} from "../executa/storage.js";
import { HostUploadParamsSchema, HostUploadResultSchema } from "../executa/upload.js";
import {
  WebFetchParamsSchema,
  WebFetchResultSchema,
  WebImageFetchParamsSchema,
  WebImageFetchResultSchema,
  WebImageSearchParamsSchema,
  WebImageSearchResultSchema,
  WebSearchParamsSchema,
  WebSearchResultSchema,
} from "../executa/web.js";

/** Base of every `$id`; the path segment is the schema version, bumped on breaking changes. */
export const JSON_SCHEMA_ID_BASE = "https://schemas.anna-ai.dev/executa/v1/";

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
  "sampling-create-message-params": SamplingCreateMessageParamsSchema,
  "sampling-create-message-result": SamplingCreateMessageResultSchema,
  "storage-get-params": StorageGetParamsSchema,
  "storage-get-result": StorageGetResultSchema,
  "storage-set-params": StorageSetParamsSchema,
  "storage-set-result": StorageSetResultSchema,
  "storage-delete-params": StorageDeleteParamsSchema,
  "storage-delete-result": StorageDeleteResultSchema,
  "storage-list-params": StorageListParamsSchema,
  "storage-list-result": StorageListResultSchema,
  "files-upload-begin-params": FilesUploadBeginParamsSchema,
  "files-upload-begin-result": FilesUploadBeginResultSchema,
  "files-upload-complete-params": FilesUploadCompleteParamsSchema,
  "files-upload-complete-result": FilesUploadCompleteResultSchema,
  "files-download-url-params": FilesDownloadUrlParamsSchema,
  "files-download-url-result": FilesDownloadUrlResultSchema,
  "files-list-params": FilesListParamsSchema,
  "files-list-result": FilesListResultSchema,
  "files-delete-params": FilesDeleteParamsSchema,
  "files-delete-result": FilesDeleteResultSchema,
  "agent-session-create-params": AgentSessionCreateParamsSchema,
  "agent-session-create-result": AgentSessionCreateResultSchema,
  "agent-session-run-params": AgentSessionRunParamsSchema,
  "agent-session-run-result": AgentSessionRunResultSchema,
  "agent-session-cancel-params": AgentSessionCancelParamsSchema,
  "agent-session-cancel-result": AgentSessionCancelResultSchema,
  "agent-session-history-params": AgentSessionHistoryParamsSchema,
  "agent-session-history-result": AgentSessionHistoryResultSchema,
  "agent-session-delete-params": AgentSessionDeleteParamsSchema,
  "agent-session-delete-result": AgentSessionDeleteResultSchema,
  "agent-session-list-params": AgentSessionListParamsSchema,
  "agent-session-list-result": AgentSessionListResultSchema,
  "agent-session-refresh-params": AgentSessionRefreshParamsSchema,
  "agent-session-refresh-result": AgentSessionRefreshResultSchema,
  "agent-complete-params": AgentCompleteParamsSchema,
  "agent-complete-result": AgentCompleteResultSchema,
  "image-generate-params": ImageGenerateParamsSchema,
  "image-edit-params": ImageEditParamsSchema,
  "image-result": ImageResultSchema,
  "host-upload-params": HostUploadParamsSchema,
  "host-upload-result": HostUploadResultSchema,
  "embeddings-create-params": EmbeddingsCreateParamsSchema,
  "embeddings-create-result": EmbeddingsCreateResultSchema,
  "credentials-list-accounts-params": CredentialsListAccountsParamsSchema,
  "credentials-list-accounts-result": CredentialsListAccountsResultSchema,
  "credentials-get-token-params": CredentialsGetTokenParamsSchema,
  "credentials-get-token-result": CredentialsGetTokenResultSchema,
  "web-search-params": WebSearchParamsSchema,
  "web-search-result": WebSearchResultSchema,
  "web-fetch-params": WebFetchParamsSchema,
  "web-fetch-result": WebFetchResultSchema,
  "web-image-search-params": WebImageSearchParamsSchema,
  "web-image-search-result": WebImageSearchResultSchema,
  "web-image-fetch-params": WebImageFetchParamsSchema,
  "web-image-fetch-result": WebImageFetchResultSchema,
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
