// Reading Tandem's tree files (`#N [Role] "name" value:"…" x:N y:N w:W h:H visible …`, see
// src/core/tree/treeFormat.ts) back into positions: for tests, the demo and the bench.
import { readFileSync } from 'node:fs';

export interface TreeLine {
  /** The element_index the line starts with (`#N`; tree, `+` and `~` diff lines carry it). */
  index?: number;
  role: string;
  /** The element's name (label), unescaped as far as quotes go. */
  text: string;
  /** Its value, when the line shows one. */
  value?: string;
  x: number;
  y: number;
  width: number;
  height: number;
  line: string;
}

const TREE_LINE = /^\s*(?:#(\d+) )?\[([^\]]+)\] "((?:[^"\\]|\\.)*)"(?: value:"((?:[^"\\]|\\.)*)")?(?: x:(-?\d+) y:(-?\d+) w:(\d+) h:(\d+))?/;

/** Undoes treeFormat's escapes (\n \r \t \\ \" \' \uXXXX). */
function unescape(text: string): string {
  return text.replace(/\\(u[0-9a-f]{4}|.)/g, (_, code: string) => {
    if (code.length === 5) return String.fromCharCode(parseInt(code.slice(1), 16));
    return ({ n: '\n', r: '\r', t: '\t' } as Record<string, string>)[code] ?? code;
  });
}

export function parseTreeLines(tree: string): TreeLine[] {
  return tree.split('\n').flatMap((line) => {
    const match = TREE_LINE.exec(line);
    if (!match) return [];
    const [, index, role, text, value, x, y, w, h] = match;
    return [{ ...(index !== undefined ? { index: Number(index) } : {}), role, text: unescape(text), ...(value !== undefined ? { value: unescape(value) } : {}), x: Number(x ?? NaN), y: Number(y ?? NaN), width: Number(w ?? NaN), height: Number(h ?? NaN), line }];
  });
}

/** The first element whose text equals `text` (and role contains `role`), from a tree file. */
export function findElement(treeFile: string, text: string, role?: string): TreeLine {
  const lines = parseTreeLines(readFileSync(treeFile, 'utf8'));
  const found = lines.find((line) => line.text === text && (!role || line.role.toLowerCase().includes(role.toLowerCase())));
  if (!found) throw new Error(`No element "${text}" in ${treeFile}`);
  return found;
}

export function centre(element: TreeLine): { x: number; y: number } {
  return { x: Math.round(element.x + element.width / 2), y: Math.round(element.y + element.height / 2) };
}
