// What a file under `fixtures/` is. Besides recordings, those folders hold mock-answer files
// (`{ns, method, result}` lines, read by `--mock-llm` and the test kit) and app data (seed files,
// pretty-printed JSON): the fixture tools and the harness say so instead of failing every line.
import { lineStyle } from "./parse-recording.js";

export type FixtureFileKind = "recording" | "mock_answers" | "app_data";

export const FIXTURE_FILE_KIND_LABELS: Readonly<Record<FixtureFileKind, string>> = Object.freeze({
  recording: "a session recording",
  mock_answers: "a mock-answer file ({ns, method, result} lines), not a recording",
  app_data: "app data (JSON that is not a recording's lines), not a recording",
});

/**
 * Whether a line says nothing about the file's kind: blank, or a `#` comment (mock-answer files
 * may start with comments; a recording never holds one).
 */
export function isNeutralLine(line: string): boolean {
  const text = line.replace(/^\uFEFF/, "").trim();
  return text === "" || text.startsWith("#");
}

/**
 * The kind of a file from its first line that is not neutral (see isNeutralLine). A line that is not JSON at all leaves the
 * file a recording (a broken one, whose lines `fixture verify` reports) unless the name says it
 * is a `.json` document; a JSON object line without `kind`/`dir` is a mock answer when it names
 * a call (`ns` + `method`), else app data.
 */
export function fixtureFileKind(firstLine: string | undefined, fileName = ""): FixtureFileKind {
  if (firstLine === undefined) return "recording";
  const text = firstLine.replace(/^\uFEFF/, "").trim();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return /\.json$/i.test(fileName) ? "app_data" : "recording";
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "app_data";
  const rec = value as Record<string, unknown>;
  if (lineStyle(rec) !== undefined) return "recording";
  if (typeof rec.ns === "string" && typeof rec.method === "string") return "mock_answers";
  return "app_data";
}
