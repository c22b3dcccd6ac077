/* global document */
import { AnnaAppRuntime } from "/static/anna-apps/_sdk/latest/index.js";
import { startTimer } from "./timer.js";

const runtime = await AnnaAppRuntime.connect();
document.body.textContent = "Focus";
document.body.addEventListener("click", () => {
  void startTimer(runtime, { duration_minutes: 25 });
});
