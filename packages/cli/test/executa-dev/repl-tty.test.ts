// On a terminal, lines printed while the user types clear the prompt line first and redraw the
// prompt after, so plugin output never garbles what is being typed.
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import type { CliIo } from "../../src/cli/io.js";
import { createStyle } from "../../src/cli/style.js";
import { startRepl } from "../../src/executa-dev/repl.js";

function ttyIo(): {
  io: CliIo;
  type: (text: string) => void;
  out: () => string;
  err: () => string;
} {
  const stdin = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => undefined });
  const stdout = Object.assign(new PassThrough(), { isTTY: true, columns: 80 });
  const stderr = Object.assign(new PassThrough(), { isTTY: true });
  let outText = "";
  let errText = "";
  stdout.on("data", (c: Buffer) => (outText += c.toString()));
  stderr.on("data", (c: Buffer) => (errText += c.toString()));
  const style = createStyle(false);
  return {
    io: { stdin, stdout, stderr, env: {}, cwd: "/", style, errStyle: style },
    type: (text) => void stdin.write(text),
    out: () => outText,
    err: () => errText,
  };
}

describe("REPL on a TTY", () => {
  it("clears the prompt line, prints, and redraws the prompt with the typed text", async () => {
    const { io, type, out, err } = ttyIo();
    const repl = startRepl(
      io,
      { run: () => Promise.resolve(), toolNames: () => [], parameterNames: () => [] },
      "t> ",
    );
    try {
      type("invoke ec");
      await new Promise<void>((resolve) => setImmediate(resolve));
      repl.printErr("[plugin] hello from stderr");
      repl.print("a result line");
      await new Promise<void>((resolve) => setImmediate(resolve));
      expect(err()).toBe("[plugin] hello from stderr\n");
      const text = out();
      const cleared = text.lastIndexOf("\r\u001b[2K");
      expect(cleared).toBeGreaterThan(-1);
      // After the last print: the prompt comes back with what was typed.
      expect(text.slice(text.lastIndexOf("a result line"))).toContain("t> invoke ec");
    } finally {
      repl.close();
    }
    await repl.done;
  });

  it("Ctrl-C clears a typed line, and on an empty prompt ends the session as interrupted", async () => {
    const { io, type } = ttyIo();
    const repl = startRepl(
      io,
      { run: () => Promise.resolve(), toolNames: () => [], parameterNames: () => [] },
      "t> ",
    );
    try {
      type("invoke ec");
      type("\u0003");
      await new Promise<void>((resolve) => setImmediate(resolve));
      expect(repl.interrupted()).toBe(false);
      type("\u0003");
      await repl.done;
      expect(repl.interrupted()).toBe(true);
    } finally {
      repl.close();
    }
  });
});
