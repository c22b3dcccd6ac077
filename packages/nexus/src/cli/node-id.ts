// This node's id among the nodes sharing one database, recorded on the chat turns it runs
// (D-nexus-167): ANNA_NODE_ID, or one the first start writes into the data folder, so a
// restarted node knows the turns its previous life left running. Each node keeps its own data
// folder, which makes the default unique; a node without a lasting data folder (a container
// without a volume) gets a new id on each start, and its left-over turns end once stale.
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { readOrCreateDataFile } from "../core/data-file.js";
import { usageError } from "./exit.js";

export const NODE_ID_ENV = "ANNA_NODE_ID";
export const NODE_ID_FILE = "node-id";
const NODE_ID = /^[\x21-\x7e]{1,128}$/;

export function nodeIdFrom(env: NodeJS.ProcessEnv, dataDir: string): string {
  const fromEnv = env[NODE_ID_ENV]?.trim();
  if (fromEnv) {
    if (!NODE_ID.test(fromEnv)) {
      throw usageError(
        `${NODE_ID_ENV} must be 1 to 128 printable characters without spaces (got '${fromEnv.slice(0, 40)}')`,
        "start",
      );
    }
    return fromEnv;
  }
  const made = () =>
    `${hostname().replace(/[^\x21-\x7e]/g, "") || "node"}-${randomUUID().slice(0, 8)}`;
  const { text, file } = readOrCreateDataFile(dataDir, NODE_ID_FILE, made, 0o644);
  if (!NODE_ID.test(text)) {
    throw usageError(
      `${file} must hold 1 to 128 printable characters without spaces; delete it to have a new id made`,
      "start",
    );
  }
  return text;
}
