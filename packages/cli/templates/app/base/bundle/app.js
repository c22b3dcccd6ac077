// Connects to the host, counts visits in storage and greets through the bundled executa.
// Every Host API call here is granted in manifest.json `ui.host_api`; `anna-app validate
// --strict` checks that. The calls themselves live in logic.js, where tests reach them.
import { AnnaAppRuntime } from "/static/anna-apps/_sdk/latest/index.js";
import { countVisit, greet, HANDLE, toolIdFor, visitsLabel } from "./logic.js";

const TOOL_ID = toolIdFor(window.__ANNA_TOOL_IDS__, HANDLE);
const form = document.getElementById("greet");
const input = document.getElementById("name");
const message = document.getElementById("message");
const visits = document.getElementById("visits");

const anna = await AnnaAppRuntime.connect();

async function showVisit() {
  visits.textContent = visitsLabel(await countVisit(anna));
}

async function showGreeting() {
  message.textContent = "…";
  message.textContent = await greet(anna, TOOL_ID, input.value);
}

function fail(error) {
  message.textContent = `Something went wrong: ${error?.message ?? error}`;
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  showGreeting().catch(fail);
});

showVisit().catch(fail);
showGreeting().catch(fail);
