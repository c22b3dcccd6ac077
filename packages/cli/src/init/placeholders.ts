// `{{name}}` placeholders in the app templates' file names and contents. The executa templates
// have their own fixed set (executa-init/placeholders.ts); the app layers need different names.
import { fillTemplateText } from "../scaffold/placeholders.js";

export type AppPlaceholders = Readonly<Record<string, string>>;

export class AppPlaceholderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AppPlaceholderError";
  }
}

/**
 * Replaces every `{{name}}`. An unknown name is a bug in a template, so it throws rather than
 * leaving braces in a generated file.
 */
export function fillAppPlaceholders(text: string, values: AppPlaceholders, where: string): string {
  return fillTemplateText(text, values, where, (message) => new AppPlaceholderError(message));
}
