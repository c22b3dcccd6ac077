// Every Host API handler, one table: what the dispatcher serves, and what the contract test holds
// against the contract's methods.
import type { MethodTable, StorageBackend } from "../dispatcher/types.js";
import { appsMethods } from "./apps-methods.js";
import { chatMethods } from "./chat-methods.js";
import { credentialsMethods } from "./credentials-methods.js";
import { filesMethods } from "./files-methods.js";
import { agentMethods, imageMethods, llmMethods, uploadMethods } from "./model-methods.js";
import { storageMethods } from "./storage-methods.js";
import { stubMethods } from "./stub-methods.js";
import type { ToolJobs } from "./tool-jobs.js";
import { toolsMethods } from "./tools-methods.js";
import { webMethods } from "./web-methods.js";
import { windowMethods } from "./window-methods.js";

export function hostApiMethodTable(jobs: ToolJobs, storageBackend: StorageBackend): MethodTable {
  return {
    ...stubMethods(),
    ...windowMethods(),
    ...toolsMethods(jobs),
    ...storageMethods(storageBackend),
    ...filesMethods(),
    ...chatMethods(),
    ...llmMethods(),
    ...agentMethods(),
    ...imageMethods(),
    ...uploadMethods(),
    ...webMethods(),
    ...credentialsMethods(),
    ...appsMethods(),
  };
}
