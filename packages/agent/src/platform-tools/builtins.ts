// The platform built-ins this server serves, built once at start: fs_* on the users'
// workspaces, web_search and web_fetch, doc_read and sheet_read. exec_* come from the sandbox
// package and are passed to `platformToolsFor` alongside; the app view tools are per turn
// (they depend on the apps mentioned), see app-view-tools.ts.
import type { AgentTool } from "../turns/types.js";
import { attachmentTools } from "./attachments/attachment-tools.js";
import type { AttachmentLookup } from "./attachments/attachment.js";
import { fsTools } from "./fs/fs-tools.js";
import type { SharedWorkspaces } from "./fs/workspace-access.js";
import { webTools, type WebToolsOptions } from "./web/web-tools.js";

export interface PlatformBuiltinsOptions extends WebToolsOptions {
  /** The directory holding every user's workspace. */
  workspaceRoot: string;
  /** The sandbox's workspaces, when exec_* are offered too: both families see the same files. */
  sharedWorkspaces?: SharedWorkspaces | undefined;
  attachment: AttachmentLookup;
}

export function platformBuiltins(options: PlatformBuiltinsOptions): AgentTool[] {
  return [
    ...webTools(options),
    ...attachmentTools({ attachment: options.attachment }),
    ...fsTools({ workspaceRoot: options.workspaceRoot, shared: options.sharedWorkspaces }),
  ];
}
