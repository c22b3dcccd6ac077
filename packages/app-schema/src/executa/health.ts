import { z } from "zod";

/**
 * `health` results are free-form (real-world-plugins.md): `{status:"ready",message,details}`,
 * `{status:"healthy",timestamp,version,tools_count}`, `{status:"ok"}`. Any object is accepted.
 */
export const HealthResultSchema = z.looseObject({
  status: z.unknown().optional(),
  message: z.unknown().optional(),
  details: z.unknown().optional(),
});
export type HealthResult = z.infer<typeof HealthResultSchema>;

export type HealthState = "healthy" | "starting" | "unhealthy";

const HEALTHY = new Set(["ready", "healthy", "ok"]);

/**
 * H8: any result means alive; `ready|healthy|ok` healthy, `initializing` starting, `error`
 * unhealthy; an unknown or missing status counts as healthy. (A `-32601` answer is healthy too;
 * that is the caller's branch.)
 */
export function healthState(result: unknown): HealthState {
  const status =
    typeof result === "object" && result !== null
      ? (result as Record<string, unknown>)["status"]
      : undefined;
  if (typeof status !== "string") return "healthy";
  const lower = status.toLowerCase();
  if (HEALTHY.has(lower)) return "healthy";
  if (lower === "initializing") return "starting";
  if (lower === "error") return "unhealthy";
  return "healthy";
}
