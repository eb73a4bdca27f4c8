// Which element a step acts on: element_index pins, queries resolved against a fresh tree, the
// choice between elements sharing a label (kept for the answer), and whether typed text goes
// into a secure field.

import { refind, staleIndexError } from '../tree/elementIndex.js';
import { TandemError } from '../errors.js';
import type { ElementNode } from '../model.js';
import { chooseElement, refuseBlocked, type ElementPurpose } from '../tree/query.js';
import { lastFocusMover } from '../tree/redact.js';
import type { ChoiceCandidate } from './result.js';
import type { ClickTarget, ElementQuery, Step } from './steps.js';
import { formatElementLabel } from '../tree/treeFormat.js';
import type { CallState } from './callState.js';

/** The element queries a step aims at (a drag has two ends), in the order it resolves them. */
export function queriesOf(step: Step): ElementQuery[] {
  const ofTarget = (target: ClickTarget): ElementQuery[] => ('query' in target ? [target.query] : []);
  switch (step.kind) {
    case 'click':
    case 'scroll':
      return ofTarget(step.target);
    case 'drag':
      return [...ofTarget(step.from), ...ofTarget(step.to)];
    case 'element-action':
    case 'set-value':
    case 'set-selected':
      return [step.query];
    case 'type-text':
      return step.query ? [step.query] : [];
    default:
      return [];
  }
}

export function focusedIn(elements: readonly ElementNode[]): ElementNode | null {
  return elements.find((el) => el.focused) ?? null;
}

/** A candidate the answer names; its element is kept so the answer can give the after-tree's index. */
export function candidateOf(state: CallState, element: ElementNode): ChoiceCandidate {
  const candidate = { index: element.index, role: element.role, name: element.text };
  state.candidateNodes.set(candidate, element);
  return candidate;
}

export function hasIndex(query: ElementQuery | undefined): query is ElementQuery & { index: number } {
  return query?.index !== undefined;
}

export async function locate(state: CallState, query: ElementQuery, index: number): Promise<ElementNode> {
  const pinned = state.resolvedBefore.get(query);
  if (pinned && !state.treeIsStale) return pinned;
  const tree = await state.freshTree();
  if (pinned) {
    const again = refind(tree.elements, pinned);
    if (!again) throw hasIndex(query) ? staleIndexError(query.index) : new TandemError('not-found', `${formatElementLabel(pinned)} is no longer in the tree.`);
    // A step before this one may have opened a modal dialog over it.
    refuseBlocked(tree.elements, again);
    return again;
  }
  return choose(state, tree.elements, query, index);
}

/** Typing after a click, or setting a value, needs a field: a label sharing its name will not do. */
export function purposeOf(state: CallState, index: number): ElementPurpose {
  const step = state.steps[index];
  if (step.kind === 'set-value' || step.kind === 'type-text') return 'editable';
  if (step.kind !== 'click') return 'any';
  const next = state.steps.slice(index + 1).find((later) => later.kind !== 'wait');
  return next?.kind === 'type' ? 'editable' : 'any';
}

/**
 * Picks step `index`'s element. When another element with the same label matched too (a label
 * and the field it labels, two "Save" buttons), the choice is kept for the answer to explain.
 */
export function choose(state: CallState, elements: readonly ElementNode[], query: ElementQuery, index: number): ElementNode {
  const choice = chooseElement(elements, query, purposeOf(state, index));
  const { element, runnerUp, reason } = choice;
  if (runnerUp && reason && runnerUp.text.toLowerCase() === element.text.toLowerCase()) {
    state.choices.set(query, { step: index, chosen: candidateOf(state, element), over: candidateOf(state, runnerUp), reason, matched: choice.others + 1 });
  } else {
    state.choices.delete(query);
  }
  return element;
}

export async function isSecureDestination(state: CallState, index: number): Promise<boolean> {
  const predicted = state.destinations.get(index);
  if (predicted === 'secure') return true;
  const mover = lastFocusMover(state.steps, index);
  if (mover >= 0 && state.steps[mover].kind === 'click') {
    if (state.lastClickTarget) return state.lastClickTarget.secure;
    return predicted !== 'plain';
  }
  if (predicted === 'unknown') {
    const focused = (await state.freshTree()).elements.find((el) => el.focused);
    return focused ? focused.secure : true;
  }
  return false;
}

