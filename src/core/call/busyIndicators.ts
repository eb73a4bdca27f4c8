// Busy indicators (a spinner, a pulsing or filling progress bar) repaint for as long as the work
// they show goes on: seconds, or for ever (gtk3-widget-factory pulses a progress bar from a
// timer, so every answer on its first page waited out the whole settle bound and said settled:
// no). Their own repaints are no sign that the app is still handling the action: paints wholly
// inside them do not count towards settling. Any other paint still does, so does every
// accessibility event, and a paint that spills outside such an indicator counts whole.

import type { ElementNode, Rect } from '../model.js';
import type { CallState } from './callState.js';
import type { TreeReader } from './settle.js';
import { rectInside } from '../tree/windowChoice.js';

/** Roles that show ongoing work by moving: AT-SPI's ProgressBar and Animation (GTK's spinner), AX's ProgressIndicator and BusyIndicator. */
const BUSY_ROLES: ReadonlySet<string> = new Set(['ProgressBar', 'Animation', 'ProgressIndicator', 'BusyIndicator']);

/** At most this many areas (a list of many rows with a spinner each needs no more to be judged). */
const MAX_BUSY_AREAS = 32;

/** Screen areas of the visible busy indicators among `elements` (a tree of the app, the latest read). */
export function busyIndicatorAreas(elements: readonly ElementNode[] | undefined): Rect[] {
  const areas: Rect[] = [];
  for (const element of elements ?? []) {
    if (areas.length >= MAX_BUSY_AREAS) break;
    const bounds = element.bounds;
    if (element.visible && bounds && bounds.width > 0 && bounds.height > 0 && BUSY_ROLES.has(element.role)) areas.push(bounds);
  }
  return areas;
}

/** Whether `paint` lies wholly inside one of `areas` (give or take `slackPx` for an outline drawn around it). */
export function insideOneOf(paint: Rect, areas: readonly Rect[], slackPx = 2): boolean {
  return areas.some((area) => rectInside(paint, area, slackPx));
}

/** The call's app's tree read now, for the busy indicators a settle looks for. */
export function busyTreeReader(state: CallState): TreeReader {
  return () => state.step(state.desktop.snapshot(state.request.pid, state.options.snapshotLimits, state.progress));
}
