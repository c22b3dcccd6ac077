export { main } from "./main.js";
export { ExitError, EXIT_OK, EXIT_RUNTIME, EXIT_USAGE } from "./cli/exit-error.js";
export type { Diagnostic, Severity, SourceLocation, ValidateLayer } from "./validate/diagnostic.js";
export { formatReport, reportJson } from "./validate/report.js";
export {
  type LayerResult,
  type LayerStatus,
  ValidateConfigError,
  type ValidateOptions,
  type ValidateReport,
  validateProject,
} from "./validate/validate-project.js";
