// Scroll-into-view: before clicking a target that lies outside its window or is scrolled out of
// sight, scroll the view under it — with the wheel, at the centre of the region its ancestors
// leave visible — until it shows, re-reading the tree after every step. Bounded: at most
// MAX_SCROLL_STEPS wheel steps. The first steps are 1–3 lines; once a step showed how far one
// line moves the content (toolkits differ: GTK scrolls by a power of the page size), each step
// covers most of the remaining distance at once (at most MAX_LINES_PER_STEP lines).

import type { ScrolledInto } from './stepsDone.js';
import type { Desktop, SnapshotLimits } from '../desktop.js';
import { refind } from '../tree/elementIndex.js';
import { rectContains } from '../tree/windowChoice.js';
import { TandemError } from '../errors.js';
import type { ElementNode, Point, Rect, TreeSnapshot } from '../model.js';
import type { Progress } from '../progress.js';
import { quoteText } from '../tree/treeFormat.js';

export const MAX_SCROLL_STEPS = 30;
export const MAX_LINES_PER_STEP = 50;
/**
 * Re-reads, after the app settles, of a target that lies in view but reads as hidden. Firefox
 * reports a page's fields without their showing state for a moment after they appear (seen in
 * 1 run of 3 right after the page loaded); a hidden element that stays so (a closed menu's
 * item) costs these settles before the error.
 */
export const HIDDEN_REREADS = 2;

export interface ScrollIntoViewContext {
  desktop: Desktop;
  pid: number;
  limits: SnapshotLimits;
  progress: Progress;
  /** Waits for the app to redraw after a wheel step. */
  settle: () => Promise<void>;
}

export interface ScrollTarget {
  /** The element to reach, when known (a query, or the element at the point in the last tree). */
  element: ElementNode | null;
  point: Point;
}

export interface ScrollOutcome {
  /** Where to click now. */
  point: Point;
  element: ElementNode | null;
  /** The latest tree (re-read after scrolling). */
  snapshot: TreeSnapshot;
  /** Wheel lines scrolled (0 when the target was already in view). */
  lines: number;
  /** "scrolled 7 lines down to reach \"Item 42\"" when scrolling happened (the log's line). */
  note?: string;
  /** The same as facts, for the step's StepDone. */
  scrolled?: ScrolledInto;
}

export function centreOf(rect: Rect): Point {
  return { x: Math.round(rect.x + rect.width / 2), y: Math.round(rect.y + rect.height / 2) };
}

/** How far `point` lies outside `rect` along one axis (0 inside; negative before, positive after). */
function overshoot(value: number, start: number, size: number): number {
  if (value < start) return value - start;
  if (value >= start + size) return value - (start + size - 1);
  return 0;
}

/**
 * Wheel lines for the remaining distance: with a measured pixels-per-line, 80 % of the way at
 * once (never overshooting, at most MAX_LINES_PER_STEP); without one, 1–3 lines by distance.
 */
export function linesFor(distance: number, pixelsPerLine?: number): number {
  const magnitude = Math.abs(distance);
  if (magnitude === 0) return 0;
  if (pixelsPerLine && pixelsPerLine > 0) {
    return Math.sign(distance) * Math.max(1, Math.min(MAX_LINES_PER_STEP, Math.floor((magnitude * 0.8) / pixelsPerLine)));
  }
  const lines = magnitude > 200 ? 3 : magnitude > 60 ? 2 : 1;
  return Math.sign(distance) * lines;
}

/**
 * The target's window rectangle: its own window from the window list, else the app's window
 * that contains the point (apps with several windows), else the first, else the tree's Window.
 */
async function windowRect(ctx: ScrollIntoViewContext, snapshot: TreeSnapshot, target: ScrollTarget): Promise<Rect | null> {
  const windows = (await ctx.desktop.windows(ctx.pid, ctx.progress)).filter((w) => w.bounds);
  const element = target.element;
  const own = element?.windowId !== undefined ? windows.find((w) => w.windowId === element.windowId) : undefined;
  if (own?.bounds) return own.bounds;
  const underPoint = windows.find((w) => rectContains(w.bounds, target.point));
  if (underPoint?.bounds) return underPoint.bounds;
  if (windows[0]?.bounds) return windows[0].bounds;
  const treeWindow = snapshot.elements.find((el) => /window|frame|dialog/i.test(el.role) && el.bounds && el.visible);
  return treeWindow?.bounds ?? null;
}

/**
 * Where an element without geometry must lie, from its laid-out siblings: toolkits report no
 * position for list rows scrolled out of view, but their siblings on screen show the row pitch.
 * Walks up to the nearest ancestor-or-self whose siblings have bounds; null when none do.
 */
export function estimateBounds(elements: readonly ElementNode[], element: ElementNode): Rect | null {
  const byIndex = new Map(elements.map((el) => [el.index, el]));
  for (let node: ElementNode | undefined = element; node && node.parentIndex !== null; node = byIndex.get(node.parentIndex)) {
    const siblings = elements.filter((el) => el.parentIndex === node!.parentIndex);
    const order = siblings.indexOf(node);
    const placed = siblings.map((el, i) => ({ el, i })).filter(({ el }) => el.bounds && el.bounds.height > 0);
    if (!placed.length) continue;
    const nearest = placed.reduce((a, b) => (Math.abs(b.i - order) < Math.abs(a.i - order) ? b : a));
    const pitches = placed.slice(1).map((p, k) => (p.el.bounds!.y - placed[k].el.bounds!.y) / (p.i - placed[k].i)).filter((d) => d > 0).sort((a, b) => a - b);
    const pitch = pitches.length ? pitches[Math.floor(pitches.length / 2)] : nearest.el.bounds!.height;
    const base = nearest.el.bounds!;
    return { x: base.x, y: Math.round(base.y + (order - nearest.i) * pitch), width: base.width, height: base.height };
  }
  return null;
}

/**
 * The part of the screen where the element can be seen: the window clipped by every visible
 * ancestor's bounds. A list's own box is its whole content (GTK reports a 5800 px tall ListBox),
 * so only the chain of ancestors — scroll pane, viewport, window — says what is really on
 * screen. The wheel goes to this region's centre, which lies inside the innermost scroller.
 */
function visibleRegion(elements: readonly ElementNode[], element: ElementNode, viewport: Rect | null): Rect | null {
  const byIndex = new Map(elements.map((el) => [el.index, el]));
  let region = viewport;
  for (let parent = element.parentIndex === null ? undefined : byIndex.get(element.parentIndex); parent; ) {
    const box = parent.bounds;
    if (parent.visible && box && box.width > 0 && box.height > 0) region = region ? intersect(region, box) : box;
    parent = parent.parentIndex === null ? undefined : byIndex.get(parent.parentIndex);
  }
  return region;
}

function intersect(a: Rect, b: Rect | null): Rect {
  if (!b) return a;
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  const right = Math.min(a.x + a.width, b.x + b.width);
  const bottom = Math.min(a.y + a.height, b.y + b.height);
  return right > x && bottom > y ? { x, y, width: right - x, height: bottom - y } : a;
}

function label(element: ElementNode): string {
  return element.text ? quoteText(element.text) : `[${element.role}]`;
}

function direction(dx: number, dy: number): string {
  const parts: string[] = [];
  if (dy) parts.push(dy > 0 ? 'down' : 'up');
  if (dx) parts.push(dx > 0 ? 'right' : 'left');
  return parts.join(' and ');
}

/** The tree once the app has settled, with `element` found in it again; not-found ('vanished', `goneMessage`) when it left. */
async function readAgain(ctx: ScrollIntoViewContext, element: ElementNode, goneMessage: string): Promise<{ snapshot: TreeSnapshot; element: ElementNode }> {
  await ctx.settle();
  const snapshot = await ctx.desktop.snapshot(ctx.pid, ctx.limits, ctx.progress);
  const again = refind(snapshot.elements, element);
  if (!again) throw new TandemError('not-found', goneMessage, { reason: 'vanished' });
  return { snapshot, element: again };
}

/**
 * Scrolls until the target shows inside its window, then answers where to click. Returns the
 * target unchanged when it is already in view. Throws TandemError('not-found') when it cannot
 * be reached (nothing known at an off-window point, a hidden element, or 30 steps not enough).
 */
export async function scrollIntoView(ctx: ScrollIntoViewContext, snapshot: TreeSnapshot, target: ScrollTarget): Promise<ScrollOutcome> {
  const viewport = await windowRect(ctx, snapshot, target);
  const pointOutside = viewport !== null && !rectContains(viewport, target.point);
  // Covered by another window is in view all the same: the check before the press names that window.
  if (!pointOutside && (!target.element || target.element.visible || target.element.coveredBy !== undefined)) {
    return { point: target.point, element: target.element, snapshot, lines: 0 };
  }
  if (!target.element) {
    throw new TandemError(
      'not-found',
      `The point ${target.point.x},${target.point.y} is outside the app's window and no element of the last tree is there, so there is nothing to scroll to.`,
      { reason: 'outside-window' },
    );
  }
  const original = target.element;
  let element: ElementNode = original;
  let current = snapshot;
  let totalX = 0;
  let totalY = 0;
  let rereads = 0;
  const pixelsPerLine: { x?: number; y?: number } = {};
  for (let step = 0; ; ) {
    const bounds = element.bounds ?? estimateBounds(current.elements, element);
    if (!bounds) {
      throw new TandemError('not-found', `${label(original)} has no position on screen, so it cannot be scrolled into view.`, { reason: 'no-position' });
    }
    const view = visibleRegion(current.elements, element, viewport);
    const centre = centreOf(bounds);
    const dx = view ? overshoot(centre.x, view.x, view.width) : 0;
    const dy = view ? overshoot(centre.y, view.y, view.height) : 0;
    if (dx === 0 && dy === 0) {
      if ((element.visible || element.coveredBy !== undefined) && element.bounds) {
        const lines = Math.abs(totalX) + Math.abs(totalY);
        const note = lines ? `scrolled ${lines} line${lines === 1 ? '' : 's'} ${direction(totalX, totalY)} to reach ${label(original)}` : undefined;
        const scrolled = lines ? { lines, direction: direction(totalX, totalY), target: label(original) } : undefined;
        return { point: centre, element, snapshot: current, lines, note, ...(scrolled ? { scrolled } : {}) };
      }
      if (rereads === HIDDEN_REREADS) {
        throw new TandemError('not-found', `${label(original)} is hidden although it lies inside the view: scrolling cannot reveal it.`, { reason: 'hidden-in-view' });
      }
      rereads++;
      ({ snapshot: current, element } = await readAgain(ctx, element, `${label(original)} disappeared from the tree while Tandem waited for it to show.`));
      continue;
    }
    if (step === MAX_SCROLL_STEPS) {
      throw new TandemError(
        'not-found',
        `${label(original)} was not reached after ${MAX_SCROLL_STEPS} scroll steps (${Math.abs(totalY) + Math.abs(totalX)} lines ${direction(totalX, totalY) || 'scrolled'}).`,
        { reason: 'scroll-limit' },
      );
    }
    const linesX = linesFor(dx, pixelsPerLine.x);
    const linesY = linesFor(dy, pixelsPerLine.y);
    await ctx.desktop.scroll(centreOf(view!), linesX, linesY, ctx.progress);
    step++;
    totalX += linesX;
    totalY += linesY;
    const read = await readAgain(ctx, element, `${label(original)} disappeared from the tree while scrolling towards it.`);
    current = read.snapshot;
    const again = read.element;
    // How far one line moved the content, from the target's own move (when both positions are known).
    const moved = again.bounds ?? estimateBounds(current.elements, again);
    if (moved) {
      if (linesX) pixelsPerLine.x = Math.abs(centreOf(moved).x - centre.x) / Math.abs(linesX) || pixelsPerLine.x;
      if (linesY) pixelsPerLine.y = Math.abs(centreOf(moved).y - centre.y) / Math.abs(linesY) || pixelsPerLine.y;
    }
    element = again;
  }
}
