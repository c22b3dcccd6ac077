// A JSON-RPC error to answer an MCP peer with. The SDK's `McpError` puts "MCP error <code>: "
// in front of its message, and the receiving SDK adds it again, so a refusal passed through
// one bridge would read "MCP error -32008: MCP error -32008: …". The SDK answers any thrown
// error by its `code`, `message` and `data`, so this one carries them unprefixed.
export class McpWireError extends Error {
  readonly code: number;
  readonly data: unknown;

  constructor(code: number, message: string, data?: unknown, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "McpWireError";
    this.code = code;
    this.data = data;
  }
}
