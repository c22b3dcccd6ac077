// The platform built-ins a chat turn has, built once at start: fs_* on the user's workspace under
// `<data>/workspaces`, web_search (off unless a provider is configured; it then says how to turn
// it on) and web_fetch, doc_read/sheet_read, and exec_* only inside a bubblewrap sandbox (an
// unsandboxed shell on a multi-user server is never offered). The main chat is the "inherit"
// regime of R95: the whole kit; the user's executas come from prompt assembly, not from here.
import path from "node:path";
import {
  execTools,
  platformBuiltins,
  platformToolsFor,
  type AgentTool,
  type AttachmentLookup,
  type Sandbox,
  type SearchProvider,
} from "@anna-ai/agent";

export interface ChatPlatformToolsOptions {
  /** The server's data folder; workspaces live in `<dataDir>/workspaces`. */
  dataDir: string;
  search: SearchProvider | undefined;
  /** The executa runtime's sandbox: exec_* are offered when it runs bubblewrap. */
  sandbox?: Sandbox;
  /** The conversation attachments doc_read and sheet_read read (chat-attachments.ts). */
  attachment?: AttachmentLookup;
}

export function chatPlatformTools(options: ChatPlatformToolsOptions): AgentTool[] {
  const sandboxed = options.sandbox?.options.mode === "bwrap" ? options.sandbox : undefined;
  const builtins = [
    ...platformBuiltins({
      workspaceRoot: path.join(options.dataDir, "workspaces"),
      // Beside exec_*, fs_* work in the sandbox's workspace, so both see the same files.
      sharedWorkspaces: sandboxed?.sharedWorkspaces(),
      search: options.search,
      // Without a blob store there are none: doc_read and sheet_read find none and say so.
      attachment: options.attachment ?? (() => Promise.resolve(undefined)),
    }),
    ...(sandboxed ? execTools(sandboxed) : []),
  ];
  return platformToolsFor({ regime: "inherit", inheritGranted: true, userGrant: "*", builtins })
    .tools;
}
