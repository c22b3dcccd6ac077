// The attachment readers: doc_read and sheet_read on the conversation's attachments.
import type { AgentTool } from "../../turns/types.js";
import { docReadTool, type AttachmentToolsOptions } from "./doc-read.js";
import { sheetReadTool } from "./sheet-read.js";

export function attachmentTools(options: AttachmentToolsOptions): AgentTool[] {
  return [docReadTool(options), sheetReadTool(options)];
}
