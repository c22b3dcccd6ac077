import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import type { CliIo } from "../../src/cli/io.js";
import { progressBar } from "../../src/cli/progress-bar.js";
import { createStyle } from "../../src/cli/style.js";

function io(tty: boolean): { io: CliIo; text: () => string } {
  const stderr = Object.assign(new PassThrough(), { isTTY: tty });
  let text = "";
  stderr.on("data", (c: Buffer) => (text += c.toString()));
  const style = createStyle(false);
  return {
    io: {
      stdin: new PassThrough(),
      stdout: new PassThrough(),
      stderr,
      env: {},
      cwd: "/",
      style,
      errStyle: style,
    },
    text: () => text,
  };
}

describe("progressBar", () => {
  it("rewrites one line on a terminal and clears it", () => {
    const t = io(true);
    const bar = progressBar(t.io);
    bar.update("downloading t", 0, 4 * 1024 * 1024);
    bar.update("downloading t", 1024 * 1024, 4 * 1024 * 1024);
    bar.update("downloading t", 1024 * 1024, 4 * 1024 * 1024);
    bar.update("extract t", 0, null);
    bar.clear();
    expect(t.text().split("\r\u001b[K")).toEqual([
      "",
      "downloading t [------------------------]   0%  0.0/4.0 MB",
      "downloading t [######------------------]  25%  1.0/4.0 MB",
      "extract t 0.0 MB",
      "",
    ]);
  });

  it("writes nothing when stderr is not a terminal", () => {
    const t = io(false);
    const bar = progressBar(t.io);
    bar.update("downloading t", 10, 100);
    bar.clear();
    expect(t.text()).toBe("");
  });
});
