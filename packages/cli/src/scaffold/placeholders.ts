// `{{name}}` placeholders in template file names and contents, shared by `init` and
// `executa init`. Each command keeps its own set of names and its own error class.

const PLACEHOLDER = /\{\{\s*([A-Za-z_]+)\s*\}\}/g;

/**
 * Replaces every `{{name}}`. An unknown name is a bug in a template, so it throws the error
 * `unknown` makes rather than leaving braces in a generated file.
 */
export function fillTemplateText(
  text: string,
  values: Readonly<Record<string, string>>,
  where: string,
  unknown: (message: string) => Error,
): string {
  return text.replace(PLACEHOLDER, (_match, name: string) => {
    const value = Object.hasOwn(values, name) ? values[name] : undefined;
    if (value === undefined) throw unknown(`${where}: unknown template placeholder {{${name}}}`);
    return value;
  });
}
