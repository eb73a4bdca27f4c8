// A button pressed at one pointer target, moved with it held, released at another.

import type { ElementNode, Point } from '../../model.js';
import type { DragStep } from '../../steps.js';
import { formatElementLabel } from '../../treeFormat.js';
import type { CallState } from '../callState.js';
import { pointerAt } from '../pointerTargets.js';

export async function runDragStep(state: CallState, step: DragStep, index: number): Promise<string> {
  const progress = state.progress;
  // Both ends from the same tree, before anything moves: the drag itself changes the app.
  const from = await pointerAt(state, step.from, index, true);
  const to = await pointerAt(state, step.to, index, true);
  await state.desktop.drag(from.point, to.point, { button: step.button, modifiers: step.modifiers, durationMs: step.durationMs }, progress);
  state.clickPoint = to.point;
  state.treeIsStale = true;
  const end = ({ point, element }: { point: Point; element: ElementNode | null }): string => `${element ? `${formatElementLabel(element)} at ` : ''}${point.x},${point.y}`;
  const how = [step.button !== 'left' ? `the ${step.button} button` : '', step.modifiers.length ? step.modifiers.join('+') : ''].filter(Boolean);
  return `dragged from ${end(from)} to ${end(to)} in ${step.durationMs} ms${how.length ? ` with ${how.join(' and ')}` : ''}`;
}
