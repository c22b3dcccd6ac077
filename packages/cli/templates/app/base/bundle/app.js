// Connects to the host, counts visits in storage and greets through the bundled executa.
// Every Host API call here is granted in manifest.json `ui.host_api`; `anna-app validate
// --strict` checks that. The logic worth testing lives in logic.js.
import { AnnaAppRuntime } from "/static/anna-apps/_sdk/latest/index.js";
import {
  greetingFrom,
  HANDLE,
  nameToGreet,
  toolIdFor,
  VISITS_KEY,
  visitsFrom,
  visitsLabel,
} from "./logic.js";

const TOOL_ID = toolIdFor(window.__ANNA_TOOL_IDS__, HANDLE);
const form = document.getElementById("greet");
const input = document.getElementById("name");
const message = document.getElementById("message");
const visits = document.getElementById("visits");

const anna = await AnnaAppRuntime.connect();

async function countVisit() {
  const count = visitsFrom(await anna.storage.get({ key: VISITS_KEY })) + 1;
  await anna.storage.set({ key: VISITS_KEY, value: count });
  visits.textContent = visitsLabel(count);
}

async function greet() {
  message.textContent = "…";
  // `method` names the tool: ad-hoc minted tool_ids need it (Host API, tools.invoke).
  const answer = await anna.tools.invoke({
    tool_id: TOOL_ID,
    method: "hello",
    args: { name: nameToGreet(input.value) },
  });
  message.textContent = greetingFrom(answer);
}

function fail(error) {
  message.textContent = `Something went wrong: ${error?.message ?? error}`;
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  greet().catch(fail);
});

countVisit().catch(fail);
greet().catch(fail);
