// The writes a publish command sends, recorded in order, so `--dry-run` can print exactly the
// requests a real run would send (and send none of them) and `--json` can report them.
import type { NexusClient, NexusResponse, RequestOptions } from "../account/nexus-client.js";

export interface PlannedRequest {
  method: string;
  path: string;
  body?: unknown;
  /** For requests whose body is not JSON (bundle files): what would be sent. */
  note?: string;
}

export class RequestPlan {
  readonly steps: PlannedRequest[] = [];

  constructor(
    readonly client: NexusClient,
    readonly dryRun: boolean,
  ) {}

  /** Records the write; sends it unless this is a dry run (then resolves undefined). */
  async send<T>(
    req: PlannedRequest,
    what: string,
    options: Omit<RequestOptions, "body" | "what"> = {},
  ): Promise<NexusResponse<T> | undefined> {
    this.steps.push(req);
    if (this.dryRun) return undefined;
    return this.client.request<T>(req.method, req.path, {
      ...options,
      what,
      ...(req.body === undefined ? {} : { body: req.body }),
    });
  }

  /** Records a write that only a real run can name (an id the server has not minted yet). */
  note(req: PlannedRequest): void {
    this.steps.push(req);
  }
}

/** The plan as a dry run prints it: one request a line. */
export function renderPlan(steps: readonly PlannedRequest[]): string {
  return steps
    .map(
      (q) =>
        `  ${q.method} ${q.path}` +
        (q.body === undefined ? "" : " " + JSON.stringify(q.body)) +
        (q.note === undefined ? "" : ` (${q.note})`),
    )
    .join("\n");
}
