// The fs_* family (R96): ten tools on the calling user's workspace directory.
import type { AgentTool } from "../../turns/types.js";
import { fsReadTools, type FsToolsOptions } from "./fs-read-tools.js";
import { fsWriteTools } from "./fs-write-tools.js";

export function fsTools(options: FsToolsOptions): AgentTool[] {
  return [...fsReadTools(options), ...fsWriteTools(options)];
}
