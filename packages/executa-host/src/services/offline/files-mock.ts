// `--storage mock` for `files/*`: the same first-match answers as storage (storage-mock.ts), with
// lines written as `{"ns":"files","method":"upload_begin",…}`.
import type { FilesService } from "../files-service.js";
import type { MockFixture } from "./mock-fixture.js";
import { answerFromFixture } from "./storage-mock.js";

export function createMockFilesService(fixture: MockFixture): FilesService {
  return {
    uploadBegin: (params) => answerFromFixture(fixture, "files/upload_begin", params),
    uploadComplete: (params) => answerFromFixture(fixture, "files/upload_complete", params),
    downloadUrl: (params) => answerFromFixture(fixture, "files/download_url", params),
    list: (params) => answerFromFixture(fixture, "files/list", params),
    delete: (params) => answerFromFixture(fixture, "files/delete", params),
  } as FilesService;
}
