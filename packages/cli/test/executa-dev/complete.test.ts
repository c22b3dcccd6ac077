// Tab completion in the REPL: commands, tool names, then parameter names inside the JSON.
import { describe, expect, it } from "vitest";
import { complete, type ReplHandlers } from "../../src/executa-dev/repl.js";

const handlers: ReplHandlers = {
  run: () => Promise.resolve(),
  toolNames: () => ["add_note", "list_notes", "echo"],
  parameterNames: (tool) => (tool === "add_note" ? ["text", "tags"] : []),
};

describe("REPL completion", () => {
  it("completes command words", () => {
    expect(complete("in", handlers)).toEqual([["invoke "], "in"]);
    expect(complete("t", handlers)[0]).toEqual(["tools ", "trace "]);
  });

  it("completes tool names after invoke", () => {
    expect(complete("invoke a", handlers)).toEqual([["add_note "], "a"]);
    expect(complete("invoke ", handlers)[0]).toEqual(["add_note ", "list_notes ", "echo "]);
  });

  it("offers the opening of the JSON arguments", () => {
    expect(complete("invoke add_note ", handlers)).toEqual([['{"'], ""]);
  });

  it("completes parameter names inside the JSON", () => {
    const [hits, replaced] = complete('invoke add_note {"te', handlers);
    expect(replaced).toBe('invoke add_note {"te');
    expect(hits).toEqual(['invoke add_note {"text": ']);
    const [next] = complete('invoke add_note {"text":"a", "ta', handlers);
    expect(next).toEqual(['invoke add_note {"text":"a", "tags": ']);
  });

  it("completes trace on|off", () => {
    expect(complete("trace o", handlers)).toEqual([["on", "off"], "o"]);
  });

  it("offers nothing for an unknown tool's parameters", () => {
    expect(complete('invoke nope {"x', handlers)[0]).toEqual([]);
  });
});
