// `readRecording(file)`: a session recording for a bundle test, read by the fixture commands'
// own reader (app-schema's codec, line by line): every style — `anna-app dev`'s, the upstream
// harness's (integer ids, bare answers, `event` keys), the guide's `dir` lines — becomes calls
// and events. A file with broken lines, or one that is not a recording, is an error naming why.
import path from "node:path";
import type { Recording } from "@anna-ai/app-schema";
import { readRecordingFile } from "../fixture/read-fixture.js";

export async function readRecording(file: string): Promise<Recording> {
  const absolute = path.resolve(file);
  const recording = await readRecordingFile(absolute);
  const errors = recording.issues.filter((issue) => issue.severity === "error");
  if (errors.length > 0) {
    const first = errors[0];
    throw new Error(
      `${file}: ${errors.length} broken line(s), first line ${first?.line}: ${first?.message} (run anna-app fixture verify ${file})`,
    );
  }
  return recording;
}
