// The mobile shell's page (Nexus serves it at /api/v1/anna-apps/runtime/mobile-shell?wid=…):
// the window `wid` full screen, on the same window host as the dashboard's desk in the mobile
// form factor. Windows the app opens (`window.open_view`) arrive on the event stream and stack
// on top; Back sends the front one to the tray, whose chips bring it back; × closes. Only the
// first window's app is shown: the person's other windows stay where they are.
import { createWindowHost, type HostReport } from "@anna-ai/app-runtime/host";
import "../styles.css";
import "../windows/desk.css";
import "./shell.css";

function element<T extends Element>(selector: string): T {
  const found = document.querySelector<T>(selector);
  if (found === null) throw new Error(`the mobile shell page has no ${selector}`);
  return found;
}

const problem = element<HTMLParagraphElement>(".shell > .error");
const empty = element<HTMLParagraphElement>(".shell-empty");

function say(text: string): void {
  problem.textContent = text;
  problem.hidden = false;
}

function describeReport(report: HostReport): string | null {
  if (report.kind !== "refused") return null;
  return `Could not ${report.action === "close" ? "close" : "change"} the window: ${report.error.message}`;
}

async function start(): Promise<void> {
  const wid = new URLSearchParams(location.search).get("wid");
  if (wid === null || wid === "") {
    say("This page shows one app window: open it as mobile-shell?wid=<window_uuid>.");
    return;
  }
  // The app of the first window, once its link is in: the only app this shell shows.
  const shown: { appId?: string } = {};
  const host = createWindowHost({
    container: element<HTMLDivElement>(".desk-frames"),
    dock: element<HTMLDivElement>(".desk-dock"),
    formFactor: "mobile",
    mobileBackTitle: "Back to the tray of open windows",
    accepts: (win) => shown.appId !== undefined && String(win["app_id"]) === shown.appId,
    onReport: (report) => {
      const text = describeReport(report);
      if (text !== null) say(text);
    },
  });
  host.start();
  host.onChange(() => {
    const frames = host.frames();
    empty.hidden = frames.length === 0 || frames.some((f) => f.status !== "minimized");
    if (frames.length === 0) say("The window was closed.");
  });
  const link = await host.client.windowLink(wid);
  if (!link.ok) {
    say(`Could not open the window: ${link.error.message}`);
    return;
  }
  shown.appId = String(link.window["app_id"]);
  host.followEvents();
  host.open(link.window, link.url);
  await host.focus(wid);
}

start().catch((error: unknown) =>
  say(`The shell could not start: ${error instanceof Error ? error.message : String(error)}`),
);
