// One validation of a step, whoever sends it (MCP, the CLI, the app): every field checked against
// LIMITS and put in canonical form (key and modifier names, rounded points) before anything is
// disturbed. Throws bad-input naming the step ("step 2 (press): …").

import { DEFAULT_DRAG_MS, type ClickStep, type ElementQuery, type Step } from './steps.js';
import { TandemError, type ErrorDetails } from '../errors.js';
import { LIMITS } from '../limits.js';
import { normalizeKey, normalizeModifiers } from '../input/keys.js';
import type { Point } from '../model.js';

export function bad(message: string, details?: ErrorDetails<'bad-input'>): TandemError {
  return new TandemError('bad-input', message, details);
}

function finite(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function within(value: number, limit: number): boolean {
  return Math.abs(value) <= limit;
}

function checkPoint(point: unknown, what: string): Point {
  const p = point as Point | undefined;
  if (!p || !finite(p.x) || !finite(p.y)) throw bad(`${what} needs a point {x, y} in screen coordinates (numbers).`);
  if (!within(p.x, LIMITS.coordinate) || !within(p.y, LIMITS.coordinate)) throw bad(`${what}: x and y must be within ±${LIMITS.coordinate} screen points.`);
  return { x: Math.round(p.x), y: Math.round(p.y) };
}

function checkLength(text: string, limit: number, what: string): string {
  if (text.length > limit) throw bad(`${what} is ${text.length} characters long; at most ${limit} are taken at once.`);
  return text;
}

function checkQuery(query: unknown, what: string): ElementQuery {
  const q = (query ?? {}) as ElementQuery;
  const hasText = typeof q.text === 'string' && q.text !== '';
  const hasRole = typeof q.role === 'string' && q.role.trim() !== '';
  const hasIndex = q.index !== undefined;
  if (hasIndex && (!Number.isInteger(q.index) || q.index! < 0 || q.index! > LIMITS.elementIndex)) throw bad(`${what}: element_index must be a whole number from 0 to ${LIMITS.elementIndex}, from the latest tree.`);
  if (hasText) checkLength(q.text!, LIMITS.queryChars, `${what}: the element text`);
  if (hasRole) checkLength(q.role!, LIMITS.queryChars, `${what}: the role`);
  if (!hasText && !hasRole && !hasIndex) throw bad(`${what}: no element was named (no text, role or element_index).`, { reason: 'no-query' });
  return { ...(hasText ? { text: q.text } : {}), ...(hasRole ? { role: q.role } : {}), ...(hasIndex ? { index: q.index } : {}) };
}

/** Checks one step and puts its key and modifier names in canonical form. */
export function normalizeStep(step: Step, position: number): Step {
  const what = `step ${position + 1} (${(step as { kind?: unknown })?.kind ?? 'no kind'})`;
  switch (step?.kind) {
    case 'click': {
      if (step.button !== 'left' && step.button !== 'right' && step.button !== 'middle') throw bad(`${what}: button must be left, right or middle.`);
      if (step.count !== 1 && step.count !== 2) throw bad(`${what}: count must be 1 (single) or 2 (double).`);
      const target = clickTarget(step.target, what);
      return { ...step, target, modifiers: normalizeModifiers(step.modifiers) };
    }
    case 'type':
      if (typeof step.text !== 'string' || step.text.length === 0) throw bad(`${what}: text must be a non-empty string.`);
      checkLength(step.text, LIMITS.typedChars, `${what}: the text`);
      return step;
    case 'press': {
      const count = step.count ?? 1;
      if (!Number.isInteger(count) || count < 1 || count > LIMITS.keyRepeat) throw bad(`${what}: count must be a whole number from 1 to ${LIMITS.keyRepeat}.`);
      return { ...step, key: normalizeKey(step.key), modifiers: normalizeModifiers(step.modifiers), ...(count > 1 ? { count } : {}) };
    }
    case 'type-text': {
      if (typeof step.text !== 'string' || step.text.length === 0) throw bad(`${what}: text must be a non-empty string.`);
      checkLength(step.text, LIMITS.typedChars, `${what}: the text`);
      if (step.mode !== 'auto' && step.mode !== 'insert' && step.mode !== 'keys') throw bad(`${what}: mode must be auto, insert or keys.`);
      if (step.replace !== undefined && typeof step.replace !== 'boolean') throw bad(`${what}: replace must be true or false.`);
      return { kind: 'type-text', text: step.text, mode: step.mode, ...(step.query !== undefined ? { query: checkQuery(step.query, what) } : {}), ...(step.replace ? { replace: true } : {}) };
    }
    case 'scroll': {
      const target = clickTarget(step.target, what);
      const deltaX = step.deltaX ?? 0;
      if (!finite(step.deltaY) || !finite(deltaX)) throw bad(`${what}: deltaY and deltaX must be numbers of lines.`);
      if (step.deltaY === 0 && deltaX === 0) throw bad(`${what}: deltaY or deltaX must not be 0.`);
      if (!within(step.deltaY, LIMITS.scrollLines) || !within(deltaX, LIMITS.scrollLines)) throw bad(`${what}: scroll at most ${LIMITS.scrollLines} lines either way per step.`);
      return { ...step, target, deltaX: Math.round(deltaX), deltaY: Math.round(step.deltaY) };
    }
    case 'drag': {
      if (step.button !== 'left' && step.button !== 'right' && step.button !== 'middle') throw bad(`${what}: button must be left, right or middle.`);
      const durationMs = step.durationMs ?? DEFAULT_DRAG_MS;
      if (!finite(durationMs) || durationMs < 0 || durationMs > LIMITS.dragMs) throw bad(`${what}: durationMs must be a number of milliseconds from 0 to ${LIMITS.dragMs}.`);
      return { ...step, from: clickTarget(step.from, `${what} from`), to: clickTarget(step.to, `${what} to`), modifiers: normalizeModifiers(step.modifiers), durationMs: Math.round(durationMs) };
    }
    case 'wait':
      if (!finite(step.ms) || step.ms < 0 || step.ms > LIMITS.waitMs) throw bad(`${what}: ms must be a number of milliseconds from 0 to ${LIMITS.waitMs}.`);
      return step;
    case 'element-action':
      if (typeof step.action !== 'string' || !step.action) throw bad(`${what}: action must be a name such as "press".`);
      return { ...step, query: checkQuery(step.query, what) };
    case 'set-value':
      if (typeof step.value !== 'string') throw bad(`${what}: value must be a string.`);
      checkLength(step.value, LIMITS.valueChars, `${what}: the value`);
      return { ...step, query: checkQuery(step.query, what) };
    case 'set-selected':
      if (typeof step.selected !== 'boolean') throw bad(`${what}: selected must be true or false.`);
      return { ...step, query: checkQuery(step.query, what) };
    default:
      throw bad(`${what}: unknown step kind.`, { reason: 'step-kind' });
  }
}

function clickTarget(target: ClickStep['target'] | undefined, what: string): ClickStep['target'] {
  if (target && 'point' in target) return { point: checkPoint(target.point, what) };
  if (target && 'zoomPixel' in target) return { zoomPixel: checkPoint(target.zoomPixel, what) };
  return { query: checkQuery((target as { query?: unknown } | undefined)?.query, what) };
}

