// The node id a chat turn records (D-nexus-167): ANNA_NODE_ID, else the one the first start
// writes to the data folder, the same on every later start; bad values are one-line errors.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { NODE_ID_FILE, nodeIdFrom } from "../../src/cli/node-id.js";

const dirs: string[] = [];
const dataDir = () => {
  const d = mkdtempSync(join(tmpdir(), "anna-node-id-"));
  dirs.push(d);
  return join(d, "data");
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("nodeIdFrom", () => {
  it("makes an id at the first start and keeps it for the next ones", () => {
    const data = dataDir();
    const first = nodeIdFrom({}, data);
    expect(first).toMatch(/^[\x21-\x7e]+-[0-9a-f]{8}$/);
    expect(readFileSync(join(data, NODE_ID_FILE), "utf8")).toBe(`${first}\n`);
    expect(nodeIdFrom({}, data)).toBe(first);
    expect(nodeIdFrom({}, dataDir())).not.toBe(first);
  });

  it("takes ANNA_NODE_ID over the file, and refuses one with spaces", () => {
    const data = dataDir();
    expect(nodeIdFrom({ ANNA_NODE_ID: " n1 " }, data)).toBe("n1");
    expect(() => nodeIdFrom({ ANNA_NODE_ID: "node one" }, data)).toThrow(
      /ANNA_NODE_ID must be 1 to 128 printable characters without spaces \(got 'node one'\)/,
    );
  });

  it("refuses a node-id file edited into something unusable, naming it", () => {
    const data = dataDir();
    nodeIdFrom({}, data);
    writeFileSync(join(data, NODE_ID_FILE), "two words\n");
    expect(() => nodeIdFrom({}, data)).toThrow(/node-id must hold .*delete it/);
  });
});
