/**
 * Replace every `{{name}}` (spaces inside the braces allowed) with `values[name]`; a name with
 * no value becomes empty, as decisions.md says. Only own properties count, so `{{__proto__}}`
 * or `{{constructor}}` fill nothing.
 */
export function fillTemplate(text: string, values: Readonly<Record<string, string>>): string {
  return text.replace(/\{\{\s*([^{}\s]+)\s*\}\}/g, (_match, name: string) => (Object.hasOwn(values, name) ? (values[name] ?? '') : ''));
}
