// The implementation of `anna-app validate` as one entry point, so the build can also write it
// as a single-file bundle (scripts/bundle-validate.mjs → dist/bundle/validate.js): importing the
// schema, host and skills packages module by module costs more than the whole run.
export { formatReport, reportJson } from "./report.js";
export { ValidateConfigError, validateProject } from "./validate-project.js";
