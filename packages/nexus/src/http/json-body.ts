import type { z } from "zod";
import { NexusError } from "../core/errors.js";
import type { Ctx } from "./context.js";

/** Parses the body as JSON against `schema` (an empty body counts as `{}`). */
export async function readJson<S extends z.ZodType>(c: Ctx, schema: S): Promise<z.infer<S>> {
  const type = c.req.header("content-type");
  const text = await c.req.text();
  let value: unknown = {};
  if (text.trim() !== "") {
    if (type && !/^application\/(.+\+)?json\b/i.test(type)) {
      throw new NexusError("unsupported_media_type", "send the body as application/json");
    }
    try {
      value = JSON.parse(text);
    } catch (err) {
      throw new NexusError("invalid_json", "the body is not valid JSON", { cause: err });
    }
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
    const first = issues[0];
    throw new NexusError(
      "validation_failed",
      first ? `${first.path || "body"}: ${first.message}` : "invalid body",
      { details: { issues } },
    );
  }
  return parsed.data as z.infer<S>;
}
