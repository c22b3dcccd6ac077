/* global window */
// Bundled executa handle → tool_id. `anna-app dev` serves a generated copy of this file from each
// executas/<handle>/executa.json (it wins over this one), and publishing rewrites it with the
// minted ids. This copy holds the local dev id so the bundle also works from any static server.
window.__ANNA_TOOL_IDS__ = { "focus-session": "tool-dev-focus-session" };
