// An MCP `tools/call` result as an Executa invoke result (T7), and back. `isError: true` is the
// tool telling the model it failed: `success: false` with the text as the error, the invoke
// error model's expected failure. Protocol failures (unknown tool, bad arguments answered as a
// JSON-RPC error) stay JSON-RPC errors on both sides.

type JsonObject = Record<string, unknown>;

export interface McpContentBlock {
  type: string;
  text?: string;
  [key: string]: unknown;
}

export interface McpCallResult {
  content?: McpContentBlock[];
  structuredContent?: JsonObject;
  isError?: boolean;
  [key: string]: unknown;
}

export type ToolAnswer = { success: true; data: unknown } | { success: false; error: string };

/** The text blocks joined by newlines, or undefined when there are none. */
export function contentText(content: readonly McpContentBlock[]): string | undefined {
  const texts = content.filter((block) => block.type === "text" && typeof block.text === "string");
  return texts.length === 0 ? undefined : texts.map((block) => block.text).join("\n");
}

/**
 * `data` is `structuredContent` when the server sent one (it is the typed result), else the text
 * when the content is text only (what most servers answer), else `{content}` as sent, so images
 * and resources reach the caller untouched.
 */
export function toolAnswerOf(result: McpCallResult): ToolAnswer {
  const content = Array.isArray(result.content) ? result.content : [];
  if (result.isError === true) {
    return {
      success: false,
      error: contentText(content) ?? "the MCP tool reported an error without a text message",
    };
  }
  if (result.structuredContent !== undefined)
    return { success: true, data: result.structuredContent };
  const textOnly = content.length > 0 && content.every((block) => block.type === "text");
  if (textOnly) return { success: true, data: contentText(content) ?? "" };
  return { success: true, data: { content } };
}

/**
 * The reverse direction, for `anna-app executa mcp`: `data` as one text block (a string as is,
 * anything else as JSON) plus `structuredContent` when it is an object; a failure as `isError`.
 */
export function callResultOf(answer: ToolAnswer): McpCallResult {
  if (!answer.success) return { content: [{ type: "text", text: answer.error }], isError: true };
  const data = answer.data;
  const text = typeof data === "string" ? data : (JSON.stringify(data) ?? "null");
  const result: McpCallResult = { content: [{ type: "text", text }] };
  if (data !== null && typeof data === "object" && !Array.isArray(data)) {
    result.structuredContent = data as JsonObject;
  }
  return result;
}
