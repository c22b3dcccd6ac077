import path from "node:path";
import { describe, expect, it } from "vitest";
import { HELLO_INVOKE, nextSteps, shellQuote } from "../../src/executa-init/next-steps.js";

describe("next steps", () => {
  it("starts with cd into the project, relative to where init ran", () => {
    expect(nextSteps("go", "/work/p/my-tool", "/work/p")).toEqual([
      "cd my-tool",
      "go test ./...",
      HELLO_INVOKE,
    ]);
  });

  it("has no cd when init ran inside the project folder", () => {
    expect(nextSteps("node", "/work/p", "/work/p")[0]).toBe("npm test");
  });

  it("uses the absolute path for a folder outside the current one, quoted when needed", () => {
    const dir = path.resolve("/other place/tool");
    expect(nextSteps("python", dir, "/work/p")[0]).toBe(`cd '${dir}'`);
  });

  it("builds the ts template before invoking it", () => {
    expect(nextSteps("ts", "/w/t", "/w")).toEqual([
      "cd t",
      "npm install",
      "npm run build",
      "npm test",
      HELLO_INVOKE,
    ]);
  });

  it("quotes for POSIX shells", () => {
    expect(shellQuote("plain/dir-1")).toBe("plain/dir-1");
    expect(shellQuote("it's here")).toBe(`'it'\\''s here'`);
  });
});
