// Why the dev tools refuse their real modes (`anna-app dev --storage aps`, `executa dev --storage
// real`, `--app-slug`, the `--*-account` flags): they need a Nexus server and an account saved by
// `anna-app login`. Both exist; the dev tools do not connect to them yet. One sentence for every
// refusal, so each names the same command, and that command exists.
export const REAL_MODE_UNAVAILABLE =
  "needs a Nexus server and an account saved by 'anna-app login', which the dev tools do not connect to yet in this build";
