// Element actions through the accessibility API: AXPress / AXShowMenu / … , AXValue writes,
// text insertion at the selection (AXSelectedText) and AXSelected. Apps often answer
// kAXErrorCannotComplete to an action that did happen (a modal it opened blocks the reply):
// that case is logged and left to core's diff to judge instead of being reported as a failure.

import type { ElementActionRequest } from '../../core/desktop.js';
import { TandemError } from '../../core/errors.js';
import type { ElementNode } from '../../core/model.js';
import type { Progress } from '../../core/progress.js';
import type { Ref } from '../../../native/macos/macNative.js';
import { CFScope } from '../../../native/macos/cfScope.js';
import { AXErrorCode, axErrorToTandem } from './axErrors.js';
import type { AxElementRegistry, AxSession } from './axElement.js';

/** A range length past any real text: apps clamp it to the end (reading the length would read the text). */
const WHOLE_TEXT_LENGTH = 0x7fffffff;

const CANONICAL_ACTIONS: Readonly<Record<string, string>> = {
  press: 'AXPress',
  click: 'AXPress',
  activate: 'AXPress',
  'show-menu': 'AXShowMenu',
  confirm: 'AXConfirm',
  cancel: 'AXCancel',
  increment: 'AXIncrement',
  decrement: 'AXDecrement',
  pick: 'AXPick',
  raise: 'AXRaise',
};

/** Canonical action name → AX action name; raw "AX…" names pass through. */
export function axActionName(action: string): string {
  const folded = action.trim().toLowerCase().replace(/[\s_]+/g, '-');
  const mapped = CANONICAL_ACTIONS[folded];
  if (mapped) return mapped;
  if (/^AX[A-Z][A-Za-z]*$/.test(action.trim())) return action.trim();
  throw new TandemError('bad-input', `Unknown action "${action}"; the actions are ${Object.keys(CANONICAL_ACTIONS).join(', ')}, and raw AX action names.`, { reason: 'action-unknown' });
}

function describe(element: ElementNode): string {
  return `[${element.role}]${element.text && !element.secure ? ` "${element.text.slice(0, 40)}"` : ''} (element_index ${element.index})`;
}

export class AxActions {
  constructor(
    private readonly session: AxSession,
    private readonly registry: AxElementRegistry,
  ) {}

  private ref(element: ElementNode): Ref {
    return this.registry.resolve(element.handle).ref;
  }

  perform(request: ElementActionRequest, progress: Progress): void {
    const name = axActionName(request.action);
    const error = this.session.native.ax.AXUIElementPerformAction(this.ref(request.element), this.session.name(name));
    if (error === AXErrorCode.cannotComplete) {
      progress.log(`${name} on ${describe(request.element)}: the app did not answer in time (it may be showing a dialog); checking the result in the new tree`);
      return;
    }
    if (error !== AXErrorCode.success) throw axErrorToTandem(error, { operation: `${name} on ${describe(request.element)}` });
  }

  private settable(element: Ref, attribute: string): boolean {
    const out = [false];
    return this.session.native.ax.AXUIElementIsAttributeSettable(element, this.session.name(attribute), out) === AXErrorCode.success && out[0];
  }

  /**
   * Replaces the element's value. When AXValue is read-only but the text selection is writable
   * (some web and custom fields), selects everything and inserts the text there instead.
   */
  setValue(element: ElementNode, value: string, progress: Progress): void {
    const ref = this.ref(element);
    const { cf, ax } = this.session.native;
    const scope = new CFScope(cf);
    try {
      const text = scope.adoptNonNull(cf.CFStringCreateWithCString(value), 'CFStringCreateWithCString');
      if (this.settable(ref, 'AXValue')) {
        const error = ax.AXUIElementSetAttributeValue(ref, this.session.name('AXValue'), text);
        if (error !== AXErrorCode.success) throw axErrorToTandem(error, { operation: `setting the value of ${describe(element)}` });
        return;
      }
      if (this.settable(ref, 'AXSelectedText') && this.settable(ref, 'AXSelectedTextRange')) {
        progress.log(`${describe(element)}: AXValue is read-only; replacing the text through the selection`);
        const everything = scope.adoptNonNull(ax.AXValueCreateRange(0, WHOLE_TEXT_LENGTH), 'AXValueCreate');
        ax.AXUIElementSetAttributeValue(ref, this.session.name('AXSelectedTextRange'), everything);
        this.insertText(element, value);
        return;
      }
      throw new TandemError('unsupported', `${describe(element)} does not accept a value through accessibility.`, { reason: 'value-refused' });
    } finally {
      scope.close();
    }
  }

  /**
   * Inserts text at the element's selection (replacing the selected text; at the caret when
   * nothing is selected), like a paste: AXSelectedText. 'unsupported' when the element does not
   * let it be written (nothing was inserted then). AXFocused is never set first: a background
   * call must not take the focus, and Apple documents no focus requirement for AXSelectedText.
   * Some apps answer success and insert nothing (FB10133386, Catalyst): to confirm on a Mac.
   */
  insertText(element: ElementNode, text: string): void {
    const ref = this.ref(element);
    const { cf, ax } = this.session.native;
    if (!this.settable(ref, 'AXSelectedText')) {
      throw new TandemError('unsupported', `${describe(element)} does not take text at its selection (AXSelectedText is not settable).`, { reason: 'no-editable-text' });
    }
    const scope = new CFScope(cf);
    try {
      const cfText = scope.adoptNonNull(cf.CFStringCreateWithCString(text), 'CFStringCreateWithCString');
      const error = ax.AXUIElementSetAttributeValue(ref, this.session.name('AXSelectedText'), cfText);
      if (error !== AXErrorCode.success) throw axErrorToTandem(error, { operation: `inserting text into ${describe(element)}` });
    } finally {
      scope.close();
    }
  }

  setSelected(element: ElementNode, selected: boolean): void {
    const { cf, ax } = this.session.native;
    const error = ax.AXUIElementSetAttributeValue(this.ref(element), this.session.name('AXSelected'), selected ? cf.kCFBooleanTrue : cf.kCFBooleanFalse);
    if (error !== AXErrorCode.success) throw axErrorToTandem(error, { operation: `${selected ? 'selecting' : 'deselecting'} ${describe(element)}` });
  }
}
