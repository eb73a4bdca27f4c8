// Element actions over AT-SPI: Action.DoAction, EditableText (whole text, insertion at the
// caret), Value and Selection.

import type { ElementActionRequest } from '../../core/desktop.js';
import { TandemError } from '../../core/errors.js';
import type { ElementNode } from '../../core/model.js';
import type { Progress } from '../../core/progress.js';
import { IFACE, ROOT_PATH } from '../../../native/linux/atspiProtocol.js';
import { isCheckableRole, roleName } from '../../../native/linux/atspiRoles.js';
import { STATE, hasState } from '../../../native/linux/atspiStates.js';
import type { AtspiBus } from './atspiBus.js';
import { readActionNames } from './atspiActionNames.js';
import { atspiHandleOf, type AtspiHandle } from './atspiHandle.js';
import { AtspiToolkits, ignoresTextInsertion } from './atspiToolkit.js';

/** Canonical action names → AT-SPI action names toolkits use, best first. */
const ACTION_ALIASES: Record<string, string[]> = {
  press: ['click', 'press', 'activate', 'toggle', 'jump', 'open'],
  'show-menu': ['popup', 'menu', 'showmenu', 'show menu', 'show_menu', 'context menu'],
  confirm: ['activate', 'confirm', 'click', 'press'],
  cancel: ['cancel', 'dismiss', 'close'],
  increment: ['increment', 'increase'],
  decrement: ['decrement', 'decrease'],
  expand: ['expand', 'expand or contract', 'expand or collapse'],
  collapse: ['collapse', 'expand or contract', 'expand or collapse'],
  toggle: ['toggle', 'click', 'press', 'activate'],
};

/**
 * The index of the action to run for `requested` among the element's action names, or null.
 * Canonical names go through the alias list; "press" falls back to the first action; any
 * other string must match a raw action name (case-insensitive).
 */
export function resolveActionIndex(requested: string, available: readonly string[]): number | null {
  const lower = available.map((name) => name.toLowerCase());
  const wanted = requested.trim().toLowerCase();
  for (const candidate of ACTION_ALIASES[wanted] ?? []) {
    const index = lower.indexOf(candidate);
    if (index >= 0) return index;
  }
  const exact = lower.indexOf(wanted);
  if (exact >= 0) return exact;
  if (wanted === 'press' && available.length > 0) return 0;
  return null;
}

export class AtspiActions {
  private readonly bus: AtspiBus;
  private readonly toolkits: AtspiToolkits;

  constructor(bus: AtspiBus, toolkits: AtspiToolkits = new AtspiToolkits(bus)) {
    this.bus = bus;
    this.toolkits = toolkits;
  }

  async performAction(request: ElementActionRequest, progress: Progress): Promise<void> {
    const handle = atspiHandleOf(request.element);
    const action = request.action.trim().toLowerCase();
    if ((action === 'increment' || action === 'decrement') && handle.interfaces.includes(IFACE.value)) {
      const names = handle.interfaces.includes(IFACE.action) ? await this.actionNames(handle, progress) : [];
      if (resolveActionIndex(action, names) === null) {
        await this.stepValue(handle, action === 'increment' ? 1 : -1, progress);
        return;
      }
    }
    await this.doNamedAction(handle, request.action, describe(request.element), progress);
  }

  async setValue(element: ElementNode, value: string, progress: Progress): Promise<void> {
    const handle = atspiHandleOf(element);
    // The value is never logged: it may be a password.
    if (handle.interfaces.includes(IFACE.editableText)) {
      await this.refuseWhereIgnored(handle.busName, describe(element), progress);
      const [ok] = await this.bus.call(
        { destination: handle.busName, path: handle.path, interface: IFACE.editableText, member: 'SetTextContents', signature: 's', body: [value] },
        progress,
        `set the text of ${describe(element)}`,
      );
      if (ok === false) throw new TandemError('unsupported', `${describe(element)} refused the new text (it may be read-only).`, { reason: 'value-refused' });
      return;
    }
    if (handle.interfaces.includes(IFACE.value)) {
      const number = Number(value.trim());
      if (value.trim() === '' || !Number.isFinite(number)) {
        throw new TandemError('bad-input', `${describe(element)} takes a number, and the value is not one.`, { reason: 'number-expected' });
      }
      await this.bus.setProperty(handle.busName, handle.path, IFACE.value, 'CurrentValue', 'd', number, progress, `set the value of ${describe(element)}`);
      return;
    }
    throw new TandemError('unsupported', `${describe(element)} has no editable text or value.`, { reason: 'value-refused' });
  }

  /**
   * EditableText.InsertText at the caret (Text.CaretOffset), the selected text deleted first
   * (Text.GetSelection, EditableText.DeleteText), as typing does. The toolkit makes it its own
   * edit: GTK emits the field's "changed" and moves the caret after the text. Nothing of the
   * text or of the field's content is read or logged (it may be a password).
   */
  async insertText(element: ElementNode, text: string, progress: Progress): Promise<void> {
    const handle = atspiHandleOf(element);
    const label = describe(element);
    if (!handle.interfaces.includes(IFACE.editableText) || !handle.interfaces.includes(IFACE.text)) {
      throw new TandemError('unsupported', `${label} offers no EditableText and Text interfaces.`, { reason: 'no-editable-text' });
    }
    await this.refuseWhereIgnored(handle.busName, label, progress);
    const target = { destination: handle.busName, path: handle.path };
    const [count] = await this.bus.call({ ...target, interface: IFACE.text, member: 'GetNSelections' }, progress, `read the selection of ${label}`);
    let position: number | null = null;
    if (Number(count) > 0) {
      const [start, end] = (await this.bus.call({ ...target, interface: IFACE.text, member: 'GetSelection', signature: 'i', body: [0] }, progress, `read the selection of ${label}`)).map(Number);
      if (end > start) {
        await this.bus.call({ ...target, interface: IFACE.editableText, member: 'DeleteText', signature: 'ii', body: [start, end] }, progress, `replace the selection of ${label}`);
        position = start;
      }
    }
    position ??= Number(await this.bus.getProperty(handle.busName, handle.path, IFACE.text, 'CaretOffset', progress, `read the caret of ${label}`));
    // A field that never had the caret answers -1: its end is where a person's typing would go.
    if (!Number.isInteger(position) || position < 0) {
      position = Number(await this.bus.getProperty(handle.busName, handle.path, IFACE.text, 'CharacterCount', progress, `read the length of ${label}`));
    }
    const length = await this.insertLength(handle.busName, text, progress);
    const [ok] = await this.bus.call(
      { ...target, interface: IFACE.editableText, member: 'InsertText', signature: 'isi', body: [position, text, length] },
      progress,
      `insert text into ${label}`,
    );
    if (ok === false) throw new TandemError('unsupported', `${label} refused the inserted text (it may be read-only).`, { reason: 'refused' });
  }

  /**
   * InsertText's length argument: bytes of UTF-8 as ATK takes it (GTK, Gecko, Chromium and
   * LibreOffice go through ATK); Qt's adaptor cuts the text to that many UTF-16 units instead,
   * so a byte count would pad a non-ASCII text with garbage there.
   */
  private async insertLength(busName: string, text: string, progress: Progress): Promise<number> {
    return insertTextLength(await this.toolkitName(busName, progress), text);
  }

  /** Refused before anything is sent where the toolkit would answer success and drop the text (see ignoresTextInsertion). */
  private async refuseWhereIgnored(busName: string, label: string, progress: Progress): Promise<void> {
    if (!ignoresTextInsertion(await this.toolkitName(busName, progress))) return;
    throw new TandemError('unsupported', `${label} answers text set through accessibility with success but never applies it.`, { reason: 'insertion-ignored' });
  }

  private async toolkitName(busName: string, progress: Progress): Promise<string> {
    return (await this.toolkits.of(busName, ROOT_PATH, progress)).name;
  }

  async setSelected(element: ElementNode, selected: boolean, progress: Progress): Promise<void> {
    const handle = atspiHandleOf(element);
    if (handle.parentPath !== null && handle.indexInParent >= 0 && handle.parentInterfaces.includes(IFACE.selection) && !isCheckableRole(handle.role)) {
      const member = selected ? 'SelectChild' : 'DeselectChild';
      const [ok] = await this.bus.call(
        { destination: handle.busName, path: handle.parentPath, interface: IFACE.selection, member, signature: 'i', body: [handle.indexInParent] },
        progress,
        `${selected ? 'select' : 'deselect'} ${describe(element)}`,
      );
      if (ok === false) throw new TandemError('unsupported', `The list refused to ${selected ? 'select' : 'deselect'} ${describe(element)}.`, { reason: 'selection-refused' });
      return;
    }
    if (isCheckableRole(handle.role) || hasState(handle.states, STATE.checkable)) {
      const [states] = await this.bus.call(
        { destination: handle.busName, path: handle.path, interface: IFACE.accessible, member: 'GetState' },
        progress,
        `read the state of ${describe(element)}`,
      );
      const words = states as number[];
      const isOn = hasState(words, STATE.checked) || hasState(words, STATE.pressed);
      if (isOn === selected) return;
      if (!selected && /radio/.test(roleName(handle.role))) {
        throw new TandemError('unsupported', `A radio button is turned off only by selecting another one of its group.`, { reason: 'radio-off' });
      }
      await this.doNamedAction(handle, 'toggle', describe(element), progress);
      return;
    }
    throw new TandemError('unsupported', `${describe(element)} cannot be selected: it is neither in a selectable list nor a check box.`, { reason: 'selection-refused' });
  }

  private async doNamedAction(handle: AtspiHandle, requested: string, label: string, progress: Progress): Promise<void> {
    if (!handle.interfaces.includes(IFACE.action)) {
      throw new TandemError('unsupported', `${label} offers no accessibility actions.`, { reason: 'element-action' });
    }
    const names = await this.actionNames(handle, progress);
    const index = resolveActionIndex(requested, names);
    if (index === null) {
      throw new TandemError('unsupported', `${label} has no "${requested}" action. Its actions: ${names.length ? names.join(', ') : 'none'}.`, { actions: names });
    }
    const [ok] = await this.bus.call(
      { destination: handle.busName, path: handle.path, interface: IFACE.action, member: 'DoAction', signature: 'i', body: [index] },
      progress,
      `${names[index] ?? requested} ${label}`,
    );
    if (ok === false) throw new TandemError('unsupported', `${label} refused the "${names[index]}" action (it may be disabled).`);
  }

  private actionNames(handle: AtspiHandle, progress: Progress): Promise<string[]> {
    return readActionNames(this.bus, handle.busName, handle.path, handle.embedded === true, progress, 'read the element actions');
  }

  private async stepValue(handle: AtspiHandle, direction: 1 | -1, progress: Progress): Promise<void> {
    const read = (property: string): Promise<number> =>
      this.bus.getProperty(handle.busName, handle.path, IFACE.value, property, progress, 'read the value').then(Number);
    const [current, step, minimum, maximum] = await Promise.all([read('CurrentValue'), read('MinimumIncrement'), read('MinimumValue'), read('MaximumValue')]);
    const increment = step > 0 ? step : 1;
    const next = Math.min(maximum, Math.max(minimum, current + direction * increment));
    await this.bus.setProperty(handle.busName, handle.path, IFACE.value, 'CurrentValue', 'd', next, progress, 'change the value');
  }
}

/** InsertText's length for `text` in an app of this toolkit (see AtspiActions.insertLength). */
export function insertTextLength(toolkit: string, text: string): number {
  return /^qt$/i.test(toolkit.trim()) ? text.length : Buffer.byteLength(text, 'utf8');
}

function describe(element: ElementNode): string {
  const text = element.secure ? '' : element.text.slice(0, 40);
  return text ? `the ${element.role} "${text}"` : `the ${element.role} at index ${element.index}`;
}
