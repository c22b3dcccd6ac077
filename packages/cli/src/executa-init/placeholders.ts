// `{{name}}` placeholders in template file names and contents.

export interface PlaceholderValues {
  slug: string;
  tool_id: string;
  /** Python module of the plugin (python template). */
  module: string;
  display_name: string;
  /** The `@anna-ai/executa-sdk` version or `file:` path (ts template). */
  sdk_dependency: string;
}

const PLACEHOLDER = /\{\{\s*([A-Za-z_]+)\s*\}\}/g;

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
  return text.replace(PLACEHOLDER, (_match, name: string) => {
    if (!Object.hasOwn(values, name)) {
      throw new PlaceholderError(`${where}: unknown template placeholder {{${name}}}`);
    }
    return values[name as keyof PlaceholderValues];
  });
}
