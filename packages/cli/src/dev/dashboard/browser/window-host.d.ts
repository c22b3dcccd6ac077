// The types of ./window-host.js, which the harness serves from @anna-ai/app-runtime's host bundle
// (dashboard-page.ts): the modules here are checked against the module they run.
export * from "@anna-ai/app-runtime/host";
