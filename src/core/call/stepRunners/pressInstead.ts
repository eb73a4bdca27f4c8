// A click on an element whose reported centre the app's hit test gives to another element
// (pointReach.ts): a plain left click on an element with a default action is that action,
// pressed through accessibility as a background click is, and the step says so. Any other click
// (right, double, with modifiers, or on an element without an action) has no such equivalent:
// the call stops before anything is pressed and names the element at the point.

import { TandemError } from '../../errors.js';
import type { ElementNode, Point } from '../../model.js';
import { formatElementLabel } from '../../tree/treeFormat.js';
import type { CallState } from '../callState.js';
import type { ClickStep } from '../steps.js';
import type { StepDone } from '../stepsDone.js';
import { performElementAction } from './elementSteps.js';

export async function pressInstead(state: CallState, step: ClickStep, element: ElementNode, point: Point, reached: ElementNode): Promise<StepDone> {
  const at = { x: Math.round(point.x), y: Math.round(point.y) };
  const plainClick = step.button === 'left' && step.count === 1 && step.modifiers.length === 0;
  if (!plainClick || !element.actionable) {
    throw new TandemError(
      'not-found',
      `Nothing was clicked: the point ${at.x},${at.y} (the centre ${formatElementLabel(element)} reports) reaches ${formatElementLabel(reached)} instead, and ${
        plainClick ? 'the element offers no action to press it through accessibility' : 'only a single left click can run as its accessibility action'
      }.`,
      { reason: 'point-reaches-other', point: at, index: element.index, reached: reached.index },
    );
  }
  // The person's confirm_before word, if the element needs it, was given before the click.
  const pressed = await performElementAction(state, element, 'press');
  return { ...pressed, pointMissed: { point: at, reached: formatElementLabel(reached) } };
}
