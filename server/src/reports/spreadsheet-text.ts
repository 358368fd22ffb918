/**
 * Spreadsheet formula injection (OWASP "CSV injection", issue 11 §13): a text cell that starts with `=`, `+`, `-`,
 * `@`, a tab or a carriage return can be taken for a formula by Excel or LibreOffice (on editing the cell, or once
 * the sheet is saved as CSV and reopened), and a formula such as =HYPERLINK(…) or =WEBSERVICE(…) can send the
 * sheet's data elsewhere. Every text cell and header of every XLSX export goes through spreadsheetText, which puts a
 * single quote in front of such a value, as OWASP recommends, so it stays plain text wherever the file goes.
 * Numbers are written as numbers and never pass through here (a negative score stays a number).
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function spreadsheetText(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/** A cell for a sheet: text made safe, numbers and empty cells as they are. */
export function spreadsheetCell<T extends string | number | null | undefined>(value: T): T {
  return (typeof value === 'string' ? spreadsheetText(value) : value) as T;
}
