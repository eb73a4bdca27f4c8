// Key and modifier names as the tools accept them, normalised once here so every backend maps
// the same canonical names (x11Keys.ts → keysyms, macKeys.ts → virtual keycodes).

import { TandemError } from '../errors.js';
import type { Modifier } from '../model.js';

/** Canonical named keys. Any single printable character is a key too ("a", "7", "/"). */
export const NAMED_KEYS = [
  'return', 'tab', 'escape', 'space', 'backspace', 'delete',
  'up', 'down', 'left', 'right', 'pageup', 'pagedown', 'home', 'end', 'insert',
  'f1', 'f2', 'f3', 'f4', 'f5', 'f6', 'f7', 'f8', 'f9', 'f10', 'f11', 'f12',
] as const;

export type NamedKey = (typeof NAMED_KEYS)[number];

const KEY_ALIASES: Record<string, NamedKey> = {
  enter: 'return', ret: 'return', cr: 'return', newline: 'return',
  esc: 'escape',
  spacebar: 'space',
  // macOS keyboards label Backspace "delete" and forward delete "⌦": the reference server's
  // "Delete" means backspace on a Mac. We keep the two apart and say so in the tool description.
  back: 'backspace', bksp: 'backspace',
  del: 'delete', forwarddelete: 'delete', deleteforward: 'delete',
  arrowup: 'up', uparrow: 'up', arrowdown: 'down', downarrow: 'down',
  arrowleft: 'left', leftarrow: 'left', arrowright: 'right', rightarrow: 'right',
  pgup: 'pageup', prior: 'pageup', pgdn: 'pagedown', pgdown: 'pagedown', next: 'pagedown',
  ins: 'insert',
};

const MODIFIER_ALIASES: Record<string, Modifier> = {
  shift: 'shift',
  control: 'control', ctrl: 'control', ctl: 'control',
  alt: 'alt', option: 'alt', opt: 'alt', altgr: 'alt',
  meta: 'meta', command: 'meta', cmd: 'meta', super: 'meta', win: 'meta', windows: 'meta',
  fn: 'fn', function: 'fn', secondaryfn: 'fn',
};

export const MODIFIER_NAMES: readonly Modifier[] = ['shift', 'control', 'alt', 'meta', 'fn'];

/** "Page Up", "page_up", "PageUp" → "pageup"; "A" stays "A" (case is meaningful for characters). */
export function normalizeKey(name: string): string {
  if (typeof name !== 'string' || name.length === 0) {
    throw new TandemError('bad-input', `keyName must be a non-empty string such as "return", "tab", "escape", "a". Named keys: ${NAMED_KEYS.join(', ')}.`);
  }
  if ([...name].length === 1) return name;
  const folded = name.toLowerCase().replace(/[\s_-]+/g, '');
  if ((NAMED_KEYS as readonly string[]).includes(folded)) return folded;
  const alias = KEY_ALIASES[folded];
  if (alias) return alias;
  // "KeyA" / "Digit7" (DOM code names) are common in model output.
  const dom = /^(?:key|digit)([a-z0-9])$/i.exec(name);
  if (dom) return dom[1].toLowerCase();
  throw new TandemError('bad-input', `Unknown key "${name}". Named keys: ${NAMED_KEYS.join(', ')}; any single character is a key too.`, { reason: 'key' });
}

/** ["Command", "shift"] → ['meta', 'shift'] (deduplicated, canonical order). */
export function normalizeModifiers(names: readonly string[] | undefined): Modifier[] {
  if (!names) return [];
  const found = new Set<Modifier>();
  for (const name of names) {
    const folded = String(name).toLowerCase().replace(/[\s_-]+/g, '').replace(/(mask|key|down)$/, '').replace(/^(maskcommand|kcgeventflagmask)/, '');
    const modifier = MODIFIER_ALIASES[folded];
    if (!modifier) {
      throw new TandemError('bad-input', `Unknown modifier "${name}". Modifiers: shift, control, alt (option), meta (command/super), fn.`, { reason: 'modifier' });
    }
    found.add(modifier);
  }
  return MODIFIER_NAMES.filter((m) => found.has(m));
}
