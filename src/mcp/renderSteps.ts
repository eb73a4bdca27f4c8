// The words for what each step did ("clicked [PushButton] "OK" at 10,20", "typed "hi""), from
// core's StepDone facts. The answer's `steps:` line, its structured `steps`, the call's file and
// the feed all read them from here. The switch is exhaustive: a kind of step core adds without
// words here fails the build.

import type { DoneAt, ScrolledInto, StepDone } from '../core/call/stepsDone.js';

function at({ point, element }: DoneAt): string {
  return `${element ? `${element} at ` : ''}${point.x},${point.y}`;
}

function scrolledInto({ lines, direction, target }: ScrolledInto): string {
  return `scrolled ${lines} line${lines === 1 ? '' : 's'} ${direction} to reach ${target}`;
}

function clickVerb(button: 'left' | 'right' | 'middle', count: number): string {
  return count === 2 ? 'double-clicked' : button === 'right' ? 'right-clicked' : button === 'middle' ? 'middle-clicked' : 'clicked';
}

function scrollAmount(deltaX: number, deltaY: number): string {
  const parts: string[] = [];
  if (deltaY) parts.push(`${Math.abs(deltaY)} lines ${deltaY > 0 ? 'down' : 'up'}`);
  if (deltaX) parts.push(`${Math.abs(deltaX)} lines ${deltaX > 0 ? 'right' : 'left'}`);
  return parts.join(' and ');
}

/** One step done, in words. */
export function describeStepDone(done: StepDone): string {
  switch (done.kind) {
    case 'click': {
      const mods = done.modifiers.length ? ` with ${done.modifiers.join('+')}` : '';
      const clicked = `${clickVerb(done.button, done.count)} ${at(done.at)}${mods}`;
      return done.scrolled ? `${scrolledInto(done.scrolled)}, then ${clicked}` : clicked;
    }
    case 'type':
      return `typed ${done.text}`;
    case 'insert':
      return `inserted ${done.text} into ${done.into}`;
    case 'type-keys': {
      const clicked = done.clicked ? `${done.clicked.scrolled ? `${scrolledInto(done.clicked.scrolled)}, ` : ''}clicked ${at(done.clicked)}, then ` : '';
      const selected = done.selectedAll ? `pressed ${done.selectedAll} to select all it held, then ` : '';
      return `${clicked}${selected}typed ${done.text}${done.into ? ` into ${done.into}` : ''} as keys`;
    }
    case 'press':
      if (done.pressed < done.count) return `pressed ${done.keys} ${done.pressed} of ${done.count} times, then stopped`;
      return `pressed ${done.keys}${done.count > 1 ? ` ×${done.count}` : ''}`;
    case 'scroll':
      return `scrolled ${scrollAmount(done.deltaX, done.deltaY)} ${done.at.element ? `over ${done.at.element} ` : ''}at ${done.at.point.x},${done.at.point.y}`;
    case 'drag': {
      const how = [done.button !== 'left' ? `the ${done.button} button` : '', done.modifiers.length ? done.modifiers.join('+') : ''].filter(Boolean);
      return `dragged from ${at(done.from)} to ${at(done.to)} in ${done.durationMs} ms${how.length ? ` with ${how.join(' and ')}` : ''}`;
    }
    case 'wait':
      return `waited ${done.ms} ms`;
    case 'element-action':
      if (done.pointMissed) {
        const { point, reached } = done.pointMissed;
        return `pressed ${done.element} through accessibility: the point ${point.x},${point.y} reaches ${reached} instead`;
      }
      return `performed "${done.action}" on ${done.element}`;
    case 'set-value':
      return `set ${done.element} to ${done.value}`;
    case 'set-selected':
      return `${done.selected ? 'selected' : 'deselected'} ${done.element}`;
  }
}

/** The steps done, one clause each: what core's files and the feed show. */
export function describeStepsDone(done: readonly StepDone[]): string {
  return done.map(describeStepDone).join('; ');
}
