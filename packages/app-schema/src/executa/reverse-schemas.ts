import type { z } from "zod";
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
} from "./agent.js";
import {
  CredentialsGetTokenParamsSchema,
  CredentialsGetTokenResultSchema,
  CredentialsListAccountsParamsSchema,
  CredentialsListAccountsResultSchema,
} from "./credentials.js";
import { EmbeddingsCreateParamsSchema, EmbeddingsCreateResultSchema } from "./embeddings.js";
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
} from "./files.js";
import { ImageEditParamsSchema, ImageGenerateParamsSchema, ImageResultSchema } from "./image.js";
import type { ReverseMethod } from "./reverse-methods.js";
import {
  SamplingCreateMessageParamsSchema,
  SamplingCreateMessageResultSchema,
} from "./sampling.js";
import {
  StorageDeleteParamsSchema,
  StorageDeleteResultSchema,
  StorageGetParamsSchema,
  StorageGetResultSchema,
  StorageListParamsSchema,
  StorageListResultSchema,
  StorageSetParamsSchema,
  StorageSetResultSchema,
} from "./storage.js";
import { HostUploadParamsSchema, HostUploadResultSchema } from "./upload.js";
import {
  WebFetchParamsSchema,
  WebFetchResultSchema,
  WebImageFetchParamsSchema,
  WebImageFetchResultSchema,
  WebImageSearchParamsSchema,
  WebImageSearchResultSchema,
  WebSearchParamsSchema,
  WebSearchResultSchema,
} from "./web.js";

/** The params a plugin sends (liberal) and the result the host answers (exact), per method. */
export interface ReverseMethodSchemas {
  params: z.ZodType;
  result: z.ZodType;
}

export const REVERSE_METHOD_SCHEMAS: Readonly<Record<ReverseMethod, ReverseMethodSchemas>> =
  Object.freeze({
    "sampling/createMessage": {
      params: SamplingCreateMessageParamsSchema,
      result: SamplingCreateMessageResultSchema,
    },
    "storage/get": { params: StorageGetParamsSchema, result: StorageGetResultSchema },
    "storage/set": { params: StorageSetParamsSchema, result: StorageSetResultSchema },
    "storage/delete": { params: StorageDeleteParamsSchema, result: StorageDeleteResultSchema },
    "storage/list": { params: StorageListParamsSchema, result: StorageListResultSchema },
    "files/upload_begin": {
      params: FilesUploadBeginParamsSchema,
      result: FilesUploadBeginResultSchema,
    },
    "files/upload_complete": {
      params: FilesUploadCompleteParamsSchema,
      result: FilesUploadCompleteResultSchema,
    },
    "files/download_url": {
      params: FilesDownloadUrlParamsSchema,
      result: FilesDownloadUrlResultSchema,
    },
    "files/list": { params: FilesListParamsSchema, result: FilesListResultSchema },
    "files/delete": { params: FilesDeleteParamsSchema, result: FilesDeleteResultSchema },
    "agent/session.create": {
      params: AgentSessionCreateParamsSchema,
      result: AgentSessionCreateResultSchema,
    },
    "agent/session.run": {
      params: AgentSessionRunParamsSchema,
      result: AgentSessionRunResultSchema,
    },
    "agent/session.cancel": {
      params: AgentSessionCancelParamsSchema,
      result: AgentSessionCancelResultSchema,
    },
    "agent/session.history": {
      params: AgentSessionHistoryParamsSchema,
      result: AgentSessionHistoryResultSchema,
    },
    "agent/session.delete": {
      params: AgentSessionDeleteParamsSchema,
      result: AgentSessionDeleteResultSchema,
    },
    "agent/session.list": {
      params: AgentSessionListParamsSchema,
      result: AgentSessionListResultSchema,
    },
    "agent/session.refresh": {
      params: AgentSessionRefreshParamsSchema,
      result: AgentSessionRefreshResultSchema,
    },
    "agent/complete": { params: AgentCompleteParamsSchema, result: AgentCompleteResultSchema },
    "image/generate": { params: ImageGenerateParamsSchema, result: ImageResultSchema },
    "image/edit": { params: ImageEditParamsSchema, result: ImageResultSchema },
    "host/uploadFile": { params: HostUploadParamsSchema, result: HostUploadResultSchema },
    "embeddings/create": {
      params: EmbeddingsCreateParamsSchema,
      result: EmbeddingsCreateResultSchema,
    },
    "credentials/listAccounts": {
      params: CredentialsListAccountsParamsSchema,
      result: CredentialsListAccountsResultSchema,
    },
    "credentials/getToken": {
      params: CredentialsGetTokenParamsSchema,
      result: CredentialsGetTokenResultSchema,
    },
    "web/search": { params: WebSearchParamsSchema, result: WebSearchResultSchema },
    "web/fetch": { params: WebFetchParamsSchema, result: WebFetchResultSchema },
    "web/image_search": {
      params: WebImageSearchParamsSchema,
      result: WebImageSearchResultSchema,
    },
    "web/image_fetch": { params: WebImageFetchParamsSchema, result: WebImageFetchResultSchema },
  });
