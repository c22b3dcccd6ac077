import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { formatIssues } from "../../src/executa/issues.js";
import { HealthResultSchema } from "../../src/executa/health.js";
import { InitializeParamsSchema, InitializeResultSchema } from "../../src/executa/initialize.js";
import { normalizeInvokeResult } from "../../src/executa/invoke.js";
import {
  FileTransportPointerSchema,
  JsonRpcErrorResponseSchema,
  JsonRpcNotificationSchema,
  JsonRpcRequestSchema,
} from "../../src/executa/jsonrpc.js";
import { ProgressParamsSchema } from "../../src/executa/progress.js";
import { isReverseMethod } from "../../src/executa/reverse-methods.js";
import { REVERSE_METHOD_SCHEMAS } from "../../src/executa/reverse-schemas.js";

interface GoldenLine {
  note: string;
  kind: string;
  body: Record<string, unknown>;
}

const LINES = readFileSync(
  join(dirname(fileURLToPath(import.meta.url)), "..", "fixtures", "frames", "real-world.jsonl"),
  "utf8",
)
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => JSON.parse(line) as GoldenLine);

/** Problems with one golden frame, or `[]`. */
function check(line: GoldenLine): string[] {
  const issues = (result: {
    success: boolean;
    error?: { issues: Parameters<typeof formatIssues>[0] };
  }) => (result.success || result.error === undefined ? [] : formatIssues(result.error.issues));
  switch (line.kind) {
    case "initialize-result":
      return issues(InitializeResultSchema.safeParse(line.body));
    case "initialize-params":
      return issues(InitializeParamsSchema.safeParse(line.body));
    case "health-result":
      return issues(HealthResultSchema.safeParse(line.body));
    case "invoke-result":
      return typeof normalizeInvokeResult(line.body).success === "boolean" ? [] : ["no success"];
    case "reverse-request": {
      const frame = JsonRpcRequestSchema.safeParse(line.body);
      if (!frame.success) return issues(frame);
      if (!isReverseMethod(frame.data.method)) return [`unknown method ${frame.data.method}`];
      return issues(REVERSE_METHOD_SCHEMAS[frame.data.method].params.safeParse(frame.data.params));
    }
    case "file-transport-pointer":
      return [
        ...issues(FileTransportPointerSchema.safeParse(line.body)),
        ...(JsonRpcRequestSchema.safeParse(line.body).success ? ["classified as a request"] : []),
      ];
    case "notification": {
      const frame = JsonRpcNotificationSchema.safeParse(line.body);
      return frame.success
        ? issues(ProgressParamsSchema.safeParse(frame.data.params))
        : issues(frame);
    }
    case "error-response":
      return issues(JsonRpcErrorResponseSchema.safeParse(line.body));
    default:
      return [`unknown kind ${line.kind}`];
  }
}

describe("frames real plugins send (test/fixtures/frames/real-world.jsonl)", () => {
  it("has golden lines to check", () => {
    expect(LINES.length).toBeGreaterThan(30);
  });

  it.each(LINES.map((line) => [line.note, line] as const))("accepts: %s", (_note, line) => {
    expect(check(line)).toEqual([]);
  });

  it("keeps the type of every reverse-request id", () => {
    const ids = LINES.filter((line) => line.kind === "reverse-request").map(
      (line) => JsonRpcRequestSchema.parse(line.body).id,
    );
    expect(ids).toContain(7);
    expect(ids).toContain(12);
    expect(ids).toContain("550e8400-e29b-41d4-a716-446655440000");
  });
});
