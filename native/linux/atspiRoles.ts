// AtspiRole: the role enum sent as a uint32 by the Cache and Accessible.GetRole, indexed by
// value, with the role names AT-SPI itself uses (atspi-constants.h, at-spi2-core 2.46).

export const ROLE_NAMES: readonly string[] = [
  'invalid', 'accelerator label', 'alert', 'animation', 'arrow', 'calendar', 'canvas', 'check box',
  'check menu item', 'color chooser', 'column header', 'combo box', 'date editor', 'desktop icon',
  'desktop frame', 'dial', 'dialog', 'directory pane', 'drawing area', 'file chooser', 'filler',
  'focus traversable', 'font chooser', 'frame', 'glass pane', 'html container', 'icon', 'image',
  'internal frame', 'label', 'layered pane', 'list', 'list item', 'menu', 'menu bar', 'menu item',
  'option pane', 'page tab', 'page tab list', 'panel', 'password text', 'popup menu',
  'progress bar', 'push button', 'radio button', 'radio menu item', 'root pane', 'row header',
  'scroll bar', 'scroll pane', 'separator', 'slider', 'spin button', 'split pane', 'status bar',
  'table', 'table cell', 'table column header', 'table row header', 'tearoff menu item',
  'terminal', 'text', 'toggle button', 'tool bar', 'tool tip', 'tree', 'tree table', 'unknown',
  'viewport', 'window', 'extended', 'header', 'footer', 'paragraph', 'ruler', 'application',
  'autocomplete', 'editbar', 'embedded', 'entry', 'chart', 'caption', 'document frame', 'heading',
  'page', 'section', 'redundant object', 'form', 'link', 'input method window', 'table row',
  'tree item', 'document spreadsheet', 'document presentation', 'document text', 'document web',
  'document email', 'comment', 'list box', 'grouping', 'image map', 'notification', 'info bar',
  'level bar', 'title bar', 'block quote', 'audio', 'video', 'definition', 'article', 'landmark',
  'log', 'marquee', 'math', 'rating', 'timer', 'static', 'math fraction', 'math root',
  'subscript', 'superscript', 'description list', 'description term', 'description value',
  'footnote', 'content deletion', 'content insertion', 'mark', 'suggestion', 'push button menu',
  'switch',
];

export const ROLE = {
  application: ROLE_NAMES.indexOf('application'),
  checkBox: ROLE_NAMES.indexOf('check box'),
  checkMenuItem: ROLE_NAMES.indexOf('check menu item'),
  comboBox: ROLE_NAMES.indexOf('combo box'),
  passwordText: ROLE_NAMES.indexOf('password text'),
  pushButton: ROLE_NAMES.indexOf('push button'),
  radioButton: ROLE_NAMES.indexOf('radio button'),
  radioMenuItem: ROLE_NAMES.indexOf('radio menu item'),
  toggleButton: ROLE_NAMES.indexOf('toggle button'),
  switch: ROLE_NAMES.indexOf('switch'),
} as const;

/** The AT-SPI role name of a role value ("unknown" for values newer than this table). */
export function roleName(role: number): string {
  return ROLE_NAMES[role] ?? 'unknown';
}

/** Role names already converted: a snapshot converts the same few dozen names hundreds of times. */
const pascalRoles = new Map<string, string>();

/** "push button" → "PushButton", "check-box" → "CheckBox". */
export function toPascalRole(name: string): string {
  let pascal = pascalRoles.get(name);
  if (pascal === undefined) {
    const words = name.trim().split(/[\s_-]+/).filter((word) => word.length > 0);
    pascal = words.length === 0 ? 'Unknown' : words.map((word) => word[0].toUpperCase() + word.slice(1).toLowerCase()).join('');
    // Bounded: role names come from a fixed table, but a caller could pass anything.
    if (pascalRoles.size < 512) pascalRoles.set(name, pascal);
  }
  return pascal;
}

/** Roles whose contents are text a person reads or types (the Text interface is read for them). */
const TEXT_ROLES = new Set([
  'text', 'entry', 'paragraph', 'terminal', 'document text', 'document frame', 'editbar',
  'spin button', 'combo box', 'autocomplete', 'heading', 'static', 'caption', 'comment',
]);

export function isTextRole(role: number): boolean {
  return TEXT_ROLES.has(roleName(role));
}

/**
 * Roles whose text is what the element holds (its value), not its label: fields a person types
 * into. Documents and terminals are left out: their whole content is no one-line value.
 */
const VALUE_TEXT_ROLES = new Set(['text', 'entry', 'editbar', 'spin button', 'combo box', 'autocomplete']);

export function isValueTextRole(role: number): boolean {
  return VALUE_TEXT_ROLES.has(roleName(role));
}

/** Roles whose number (the Value interface) is what they hold. Scroll bars are left out: noise. */
const NUMERIC_VALUE_ROLES = new Set(['slider', 'progress bar', 'dial', 'level bar', 'spin button']);

export function isNumericValueRole(role: number): boolean {
  return NUMERIC_VALUE_ROLES.has(roleName(role));
}

/** Roles that are on or off: their value is "checked" or "unchecked". */
const TOGGLE_ROLES = new Set(['check box', 'radio button', 'toggle button', 'switch', 'check menu item', 'radio menu item']);

export function isToggleRole(role: number): boolean {
  return TOGGLE_ROLES.has(roleName(role));
}

/** Roles a person presses even when the toolkit exposes no Action interface. */
const BUTTON_ROLES = new Set([
  'push button', 'toggle button', 'check box', 'radio button', 'menu item', 'check menu item',
  'radio menu item', 'link', 'page tab', 'push button menu', 'switch', 'combo box',
]);

export function isButtonLikeRole(role: number): boolean {
  return BUTTON_ROLES.has(roleName(role));
}

/** Roles with an on/off state toggled by an action rather than by a Selection parent. */
const CHECKABLE_ROLES = new Set([
  'check box', 'check menu item', 'radio button', 'radio menu item', 'toggle button', 'switch',
]);

export function isCheckableRole(role: number): boolean {
  return CHECKABLE_ROLES.has(roleName(role));
}
