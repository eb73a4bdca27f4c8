// Tree builders for tests and the core bench: small hand-written trees (`tree`), realistic big
// ones (`buildAppTree`), and edits that keep indices/parents consistent (`reindex`, `withoutSubtree`, `withInserted`, `withChanged`).

import type { ElementNode, Rect, TreeSnapshot } from '../../src/core/model.js';

export type NodeSpec = Partial<Omit<ElementNode, 'index' | 'parentIndex' | 'depth' | 'handle'>> & {
  role: string;
  children?: NodeSpec[];
};

/** One element with sensible defaults (visible, enabled, no bounds unless given). */
export function element(fields: Partial<ElementNode> & { role: string }): ElementNode {
  return {
    index: 0,
    parentIndex: null,
    depth: 0,
    text: '',
    bounds: null,
    visible: true,
    enabled: true,
    focused: false,
    actionable: false,
    secure: false,
    handle: null,
    ...fields,
  };
}

export function rect(x: number, y: number, width: number, height: number): Rect {
  return { x, y, width, height };
}

/** Flattens nested specs into pre-order elements with index, parentIndex and depth filled in. */
export function tree(...roots: NodeSpec[]): ElementNode[] {
  const out: ElementNode[] = [];
  const visit = (spec: NodeSpec, parentIndex: number | null, depth: number): void => {
    const { children, ...fields } = spec;
    const el = element({ ...fields, index: out.length, parentIndex, depth });
    out.push(el);
    for (const child of children ?? []) visit(child, el.index, depth + 1);
  };
  for (const root of roots) visit(root, null, 0);
  return out;
}

export function snapshotOf(elements: ElementNode[], app = 'Test App', pid = 4242): TreeSnapshot {
  return { pid, app, elements, elapsedMs: 1 };
}

/**
 * Re-numbers an edited pre-order list: on entry `index` and `parentIndex` are ids from before
 * the edit (give inserted elements fresh ids, e.g. 1e6 + n); on exit index = position and
 * parentIndex/depth point at the new positions. Returns copies.
 */
export function reindex(elements: readonly ElementNode[]): ElementNode[] {
  const positionOfId = new Map<number, number>();
  elements.forEach((el, pos) => positionOfId.set(el.index, pos));
  const out = elements.map((el, pos) => ({ ...el, index: pos }));
  for (const el of out) {
    const parentPos = el.parentIndex === null ? undefined : positionOfId.get(el.parentIndex);
    el.parentIndex = parentPos ?? null;
    el.depth = parentPos === undefined ? 0 : out[parentPos].depth + 1;
  }
  return out;
}

/** Removes the element at `index` and its whole subtree, then re-numbers. */
export function withoutSubtree(elements: readonly ElementNode[], index: number): ElementNode[] {
  const removed = new Set<number>([index]);
  for (const el of elements) if (el.parentIndex !== null && removed.has(el.parentIndex)) removed.add(el.index);
  return reindex(elements.filter((el) => !removed.has(el.index)));
}

/** Inserts `el` (a child of `parentIndex`) right before position `at`, then re-numbers. */
export function withInserted(elements: readonly ElementNode[], at: number, parentIndex: number, el: ElementNode): ElementNode[] {
  const copy = elements.slice();
  copy.splice(at, 0, { ...el, index: 1e9, parentIndex });
  return reindex(copy);
}

/** A copy with `changes` applied to the element at `index`. */
export function withChanged(elements: readonly ElementNode[], index: number, changes: Partial<ElementNode>): ElementNode[] {
  return elements.map((el) => (el.index === index ? { ...el, ...changes } : el));
}

/** Deterministic PRNG (mulberry32) so bench and test trees are the same on every run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ['Open', 'Save', 'File', 'Edit', 'View', 'Help', 'Name', 'Size', 'Date', 'Report', 'Budget', 'Notes',
  'Inbox', 'Draft', 'Sent', 'Archive', 'Project', 'Invoice', 'Photo', 'Music', 'Settings', 'Search', 'Print', 'Close'];

/**
 * A realistic app tree of exactly `count` elements: a window with a menu bar, a toolbar, a
 * sidebar list, a table of rows and cells (most of the tree, like a file manager or mail app),
 * a scroll bar, a text area and a status bar. Mixed roles, depth 3–6, geometry laid out top-down,
 * some hidden and some text-less elements, identities like AT-SPI object paths when `identities`.
 */
export function buildAppTree(count: number, options: { seed?: number; identities?: boolean } = {}): ElementNode[] {
  const random = seededRandom(options.seed ?? 1);
  const word = (): string => WORDS[Math.floor(random() * WORDS.length)];
  const out: ElementNode[] = [];
  const add = (parent: ElementNode | null, role: string, text: string, bounds: Rect | null, extra: Partial<ElementNode> = {}): ElementNode | null => {
    if (out.length >= count) return null;
    const el = element({
      index: out.length,
      parentIndex: parent ? parent.index : null,
      depth: parent ? parent.depth + 1 : 0,
      role,
      text,
      bounds,
      identity: options.identities ? `/org/a11y/atspi/accessible/${out.length + 1000}` : undefined,
      ...extra,
    });
    out.push(el);
    return el;
  };

  const window = add(null, 'Frame', 'Files — Budget', rect(0, 0, 1280, 800));
  if (!window) return out;
  const menuBar = add(window, 'MenuBar', '', rect(0, 0, 1280, 24));
  for (const [i, name] of ['File', 'Edit', 'View', 'Help'].entries()) {
    const menu = add(menuBar, 'Menu', name, rect(i * 60, 0, 60, 24), { actionable: true });
    for (let k = 0; k < 4; k++) add(menu, 'MenuItem', `${name} ${word()}`, rect(i * 60, 24 + k * 22, 180, 22), { visible: false, actionable: true });
  }
  const toolbar = add(window, 'ToolBar', '', rect(0, 24, 1280, 40));
  for (let i = 0; i < 8; i++) add(toolbar, 'PushButton', word(), rect(i * 44, 28, 40, 32), { actionable: true, enabled: random() > 0.1 });
  add(toolbar, 'ToggleButton', 'Bold', rect(400, 28, 40, 32), { actionable: true, selected: false });
  add(toolbar, 'Text', 'search', rect(900, 28, 300, 32), { focused: false });
  const body = add(window, 'Panel', '', rect(0, 64, 1280, 712));
  const sidebar = add(body, 'List', 'Places', rect(0, 64, 200, 712));
  for (let i = 0; i < 12; i++) add(sidebar, 'ListItem', `${word()} ${i}`, rect(0, 64 + i * 24, 200, 24), { actionable: true, selected: i === 0 });
  const scroller = add(body, 'ScrollPane', '', rect(200, 64, 1080, 600));
  const scrollBar = add(scroller, 'ScrollBar', '', rect(1264, 64, 16, 600));
  add(scrollBar, 'PushButton', '', rect(1264, 64, 16, 16), { actionable: true });
  add(scrollBar, 'Slider', '0', rect(1264, 80, 16, 40));
  add(window, 'StatusBar', `${count} items`, rect(0, 776, 1280, 24));
  add(body, 'Text', 'Notes about the budget', rect(200, 664, 1080, 112));
  const table = add(scroller, 'Table', 'Files', rect(200, 64, 1064, 600));
  // Rows fill the rest: each row has 4 cells; some cells hold a nested label (depth 5–6).
  let row = 0;
  while (out.length < count && table) {
    // A tall table (think of a big spreadsheet or a long web page on a tall screen): rows are
    // visible except every tenth, which is collapsed.
    const y = 64 + row * 24;
    const visible = row % 10 !== 9;
    const rowEl = add(table, 'TableRow', '', rect(200, y, 1064, 24), { visible, selected: false });
    for (let c = 0; c < 4 && rowEl; c++) {
      const cellText = c === 0 ? `${word()}_${row}.txt` : c === 1 ? `${(row * 37) % 900} kB` : c === 2 ? `2024-0${1 + (row % 9)}-1${c}` : '';
      const cell = add(rowEl, 'TableCell', cellText, rect(200 + c * 266, y, 266, 24), { visible, actionable: true });
      if (cell && c === 3 && row % 3 === 0) add(cell, 'Label', word(), rect(200 + c * 266 + 4, y + 4, 100, 16), { visible });
    }
    row++;
  }
  return out;
}
