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
