// The element_index a tree or diff line shows (`#N [Role] "name" …`, `+ #N …`, `~ #N …`), read
// the way a model reads it: from the line itself, no line arithmetic.

/** N of the first line that, after its `#N ` (and a diff's `+ `/`~ `), starts with `start`. */
export function indexOnLine(text: string, start: string): number {
  for (const line of text.split('\n')) {
    const match = /^\s*(?:[+~] )?#(\d+) (.*)$/.exec(line);
    if (match && match[2].startsWith(start)) return Number(match[1]);
  }
  throw new Error(`no line starting with ${start} (after its #N) in:\n${text.slice(0, 2000)}`);
}

/** The N a tree line starts with (`#N [Role] …`); NaN for a line without one. */
export function indexShown(line: string): number {
  return Number(/^\s*#(\d+) /.exec(line)?.[1] ?? NaN);
}

/** The line without its `#N `, as the format was before lines carried their index. */
export function withoutIndex(line: string): string {
  return line.replace(/^(\s*)#\d+ /, '$1');
}
