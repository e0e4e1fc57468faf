/**
 * Spreadsheet formula injection (OWASP "CSV injection"): a cell whose text starts with `=`, `+`,
 * `-`, `@`, a tab or a carriage return can be evaluated by Excel, LibreOffice or Sheets once a
 * user edits or re-saves it. Exports put an apostrophe in front — the spreadsheet's own "this is
 * text" marker, which it shows as plain text — and imports take exactly that apostrophe off again,
 * so an exported file imports back unchanged. Every file of user text the platform writes goes
 * through `toSpreadsheet`: the server's product workbook (titles and cells) and the console's CSV
 * files (import template, error report).
 *
 * The two are exact inverses: export adds one `'` to any text matching `'*` then a trigger
 * (so `'=x` becomes `''=x`), import removes one `'` from any text matching `'+` then a trigger.
 */
const TRIGGER = /^'*[=+\-@\t\r]/;
const MARKED = /^'+[=+\-@\t\r]/;

export function toSpreadsheet(text: string): string {
  return TRIGGER.test(text) ? `'${text}` : text;
}

export function fromSpreadsheet(text: string): string {
  return MARKED.test(text) ? text.slice(1) : text;
}
