// A refusal of the HTTP layer, by code: its status comes from the one code → status table
// (`httpStatusOf`, @anna-ai/app-schema/host-api), so no route picks a number of its own.
import { httpStatusOf } from "@anna-ai/app-schema/host-api";

export class HttpError extends Error {
  readonly status: number;
  readonly code: string;
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "HttpError";
    this.code = code;
    this.status = httpStatusOf(code);
  }
}
