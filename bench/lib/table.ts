// Plain-text tables for bench output: right-aligned numbers, left-aligned text.

export function renderTable(headers: readonly string[], rows: ReadonlyArray<readonly (string | number)[]>): string {
  const cells = rows.map((row) => row.map(String));
  const widths = headers.map((header, c) => Math.max(header.length, ...cells.map((row) => (row[c] ?? '').length)));
  const numeric = headers.map((_, c) => cells.length > 0 && cells.every((row) => /^[-+]?[\d.,]+$/.test(row[c] ?? '')));
  const pad = (text: string, c: number): string => (numeric[c] ? text.padStart(widths[c]) : text.padEnd(widths[c]));
  const line = (row: readonly string[]): string => '| ' + row.map((text, c) => pad(text, c)).join(' | ') + ' |';
  const rule = '|' + widths.map((width, c) => (numeric[c] ? '-'.repeat(width + 1) + ':' : '-'.repeat(width + 2))).join('|') + '|';
  return [line(headers), rule, ...cells.map(line)].join('\n');
}

export function printTable(title: string, headers: readonly string[], rows: ReadonlyArray<readonly (string | number)[]>): void {
  console.log(`\n${title}\n`);
  console.log(renderTable(headers, rows));
}
