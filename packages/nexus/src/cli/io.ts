import type { Readable } from "node:stream";

/** What commands may touch; main() passes the real process, tests pass fakes. */
export interface CliIo {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  stdin: Readable;
  /** Whether stderr is a terminal (start logs pretty lines there by default, JSON elsewhere). */
  stderrIsTty?: boolean;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

export async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream)
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks).toString("utf8");
}
