// The wheel turned over a point or an element.

import type { ScrollStep } from '../../steps.js';
import { formatElementLabel } from '../../treeFormat.js';
import type { CallState } from '../callState.js';
import { pointerAt } from '../pointerTargets.js';

export async function runScrollStep(state: CallState, step: ScrollStep, index: number): Promise<string> {
  const progress = state.progress;
  const { point, element } = await pointerAt(state, step.target, index);
  await state.desktop.scroll(point, step.deltaX, step.deltaY, progress);
  state.treeIsStale = true;
  const parts: string[] = [];
  if (step.deltaY) parts.push(`${Math.abs(step.deltaY)} lines ${step.deltaY > 0 ? 'down' : 'up'}`);
  if (step.deltaX) parts.push(`${Math.abs(step.deltaX)} lines ${step.deltaX > 0 ? 'right' : 'left'}`);
  return `scrolled ${parts.join(' and ')} ${element ? `over ${formatElementLabel(element)} ` : ''}at ${point.x},${point.y}`;
}
