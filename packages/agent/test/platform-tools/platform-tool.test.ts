import { describe, expect, it } from "vitest";
import { z } from "zod";
import { fsTools } from "../../src/platform-tools/fs/fs-tools.js";
import { platformTool, PlatformToolError } from "../../src/platform-tools/platform-tool.js";
import { context, fails, toolNamed } from "./helpers.js";

describe("platformTool", () => {
  it("gives the model a JSON Schema generated from the input schema", () => {
    const read = toolNamed(fsTools({ workspaceRoot: "/nonexistent" }), "fs_read_file");
    expect(read.parameters).toMatchObject({
      type: "object",
      required: ["path"],
      properties: {
        path: { type: "string" },
        encoding: { enum: ["auto", "text", "base64"], default: "auto" },
        start_line: { type: "integer", minimum: 1 },
      },
    });
    expect(read.parameters).not.toHaveProperty("$schema");
    expect(read.source).toEqual({ kind: "platform", family: "fs" });
    expect(read.timeoutMs).toBe(30_000);
  });

  it("answers bad input and tool errors as error results, and rethrows bugs", async () => {
    const tool = platformTool({
      name: "probe",
      family: "test",
      description: "a probe",
      input: z.object({ mode: z.enum(["fail", "bug"]), n: z.int().max(3).optional() }),
      run: (input) => {
        if (input.mode === "fail")
          throw new PlatformToolError("NOT_FOUND", "no such thing; try another");
        throw new TypeError("a bug in the tool");
      },
    });
    expect(await fails([tool], "probe", { mode: "fail" })).toEqual({
      code: "NOT_FOUND",
      message: "no such thing; try another",
    });
    const bad = await fails([tool], "probe", { mode: "other", n: 9 });
    expect(bad.code).toBe("INVALID_ARGUMENT");
    expect(bad.message).toMatch(/^probe: invalid arguments \(mode: .*; n: .*\)$/);
    await expect(tool.execute({ mode: "bug" }, context())).rejects.toThrow(TypeError);
  });
});
