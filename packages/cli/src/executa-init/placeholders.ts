// `{{name}}` placeholders in template file names and contents.
import { fillTemplateText } from "../scaffold/placeholders.js";

export interface PlaceholderValues {
  slug: string;
  tool_id: string;
  /** Python module of the plugin (python template). */
  module: string;
  display_name: string;
  /** The `@anna-ai/executa-sdk` version or `file:` path (ts template). */
  sdk_dependency: string;
  /** The `@anna-ai/cli` version or `file:` path (node and ts templates' dev dependency). */
  cli_dependency: string;
}

export class PlaceholderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PlaceholderError";
  }
}

/**
 * Replaces every `{{name}}`. An unknown name is a bug in a template, so it throws rather than
 * leaving braces in a generated file.
 */
export function fillPlaceholders(text: string, values: PlaceholderValues, where: string): string {
  return fillTemplateText(text, { ...values }, where, (message) => new PlaceholderError(message));
}
