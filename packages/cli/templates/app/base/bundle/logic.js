// The bundle's logic: no DOM and no SDK import, so tests run it under plain vitest. The Host API
// calls take the runtime as an argument: app.js passes the iframe's, a test passes mountBundle's.

/** The app.json `bundled_executas` handle of the executa this bundle calls. */
export const HANDLE = "{{handle}}";
/** The storage key holding how many times the window was opened. */
export const VISITS_KEY = "visits";

/**
 * The tool_id to invoke for a bundled handle: the one anna-tool-ids.js published, else the
 * `bundled:<handle>` ref, which the dev harness and the publish step resolve.
 */
export function toolIdFor(ids, handle) {
  const id = ids && typeof ids === "object" ? ids[handle] : undefined;
  return typeof id === "string" && id !== "" ? id : `bundled:${handle}`;
}

/**
 * The greeting out of a tools.invoke answer. Hosts resolve with the plugin's unwrapped `data`
 * (`{message}`); some wrap it as `{result: …}` or `{success, data: …}`, so all three are read.
 */
export function greetingFrom(answer) {
  let value = answer;
  for (let depth = 0; depth < 3 && value && typeof value === "object"; depth++) {
    if (typeof value.message === "string") return value.message;
    value = value.result ?? value.data;
  }
  throw new Error(`the ${HANDLE} executa answered without a message: ${JSON.stringify(answer)}`);
}

/** The stored visit count out of a storage get answer (`{value}`); 0 when nothing is stored. */
export function visitsFrom(answer) {
  const value = answer && typeof answer === "object" ? answer.value : undefined;
  return Number.isInteger(value) && value >= 0 ? value : 0;
}

export function visitsLabel(count) {
  return count === 1 ? "First visit — welcome!" : `Visit number ${count}.`;
}

/** The name to greet: trimmed, or "there" when the field is empty. */
export function nameToGreet(raw) {
  const name = String(raw ?? "").trim();
  return name === "" ? "there" : name;
}

/** Counts this visit in storage: reads the stored count, stores it plus one, returns the new count. */
export async function countVisit(anna) {
  const count = visitsFrom(await anna.storage.get({ key: VISITS_KEY })) + 1;
  await anna.storage.set({ key: VISITS_KEY, value: count });
  return count;
}

/** Greets `name` through the bundled executa's `hello` tool; returns the greeting. */
export async function greet(anna, toolId, name) {
  // `method` names the tool: ad-hoc minted tool_ids need it (Host API, tools.invoke).
  const answer = await anna.tools.invoke({
    tool_id: toolId,
    method: "hello",
    args: { name: nameToGreet(name) },
  });
  return greetingFrom(answer);
}
