// What `anna-app dev` needs of its implementation, as one module: the entry of the single-file
// bundle (scripts/bundle-dev.mjs → dist/bundle/dev.js) and of the modules it stands in for.
// DevLaunchError must come from the same place as startDevServer (the command checks instanceof).
export { devBanner, formatBanner } from "./banner.js";
export { startDevServer, STDERR_TAIL_LINES } from "./dev-server.js";
export { DevLaunchError } from "./load-app.js";
export { followActivity } from "./terminal-log.js";
