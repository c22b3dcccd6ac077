export { main } from "./main.js";
export { ExitError, EXIT_OK, EXIT_RUNTIME, EXIT_USAGE } from "./cli/exit-error.js";
