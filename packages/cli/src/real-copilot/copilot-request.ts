// One JSON call to a copilot endpoint with an `app_session_token` as Bearer (never the PAT:
// production accepts only session tokens there, spec L7640). A token the server calls expired
// (`APP_SESSION_TOKEN_EXPIRED`, L7627) is re-derived once and the call retried; any other
// failure becomes the family's catalogued error (copilot-errors.ts).
import type { NexusClient } from "../account/nexus-client.js";
import { readErrorDetail } from "../account/nexus-error.js";
import { type CopilotFamily, copilotAnswerError, copilotFailure } from "./copilot-errors.js";

export interface SessionToken {
  token(): Promise<string>;
  /** The server refused the token: derive a new one next time. */
  forget(): void;
}

export async function copilotPost<T>(
  client: NexusClient,
  family: CopilotFamily,
  path: string,
  body: unknown,
  session: SessionToken,
  signal?: AbortSignal,
): Promise<T> {
  const what = `POST ${path}`;
  try {
    for (let attempt = 0; ; attempt += 1) {
      const token = await session.token();
      const res = await client.post<T>(path, {
        body,
        auth: false,
        headers: { authorization: `Bearer ${token}` },
        anyStatus: true,
        what,
        ...(signal === undefined ? {} : { signal }),
      });
      if (res.status >= 200 && res.status < 300) return res.body;
      const code = readErrorDetail(res.body).code;
      if (res.status === 401 && code === "APP_SESSION_TOKEN_EXPIRED" && attempt === 0) {
        session.forget();
        continue;
      }
      if (res.status === 410) session.forget();
      throw copilotAnswerError(family, {
        host: client.host,
        what,
        status: res.status,
        body: res.body,
      });
    }
  } catch (error) {
    throw copilotFailure(family, error);
  }
}
