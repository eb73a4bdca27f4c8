// The accessibility tree of one app: AXUIElementCopyMultipleAttributeValues fetches every field
// of an element in one IPC; depth, count and time caps flag the snapshot truncated; secure text
// fields are marked secure and their AXValue is never requested (their label is kept); AX windows are mapped to
// CGWindowIDs for screenshots. The mapping from AX fields to tree-line fields is pure.

import type { SnapshotLimits } from '../../core/desktop.js';
import { TandemError } from '../../core/errors.js';
import { LIMITS } from '../../core/limits.js';
import type { ElementNode, Rect, TreeSnapshot, TruncationReason } from '../../core/model.js';
import { firstCharacters } from '../../core/tree/treeFormat.js';
import { type Progress, sleep, throwIfAborted } from '../../core/progress.js';
import type { NullableRef, Ref } from '../../../native/macos/macNative.js';
import { CFScope } from '../../../native/macos/cfScope.js';
import { AXErrorCode, axErrorToTandem } from './axErrors.js';
import { type AxElementRegistry, type AxSession } from './axElement.js';
import { rectsIntersect } from './macDisplays.js';

/** Requested in one IPC per element; AXValue is deliberately absent (see readValue). */
export const BATCH_ATTRIBUTES = [
  'AXRole',
  'AXSubrole',
  'AXTitle',
  'AXDescription',
  'AXPosition',
  'AXSize',
  'AXEnabled',
  'AXFocused',
  'AXSelected',
  'AXChildren',
] as const;
type BatchAttribute = (typeof BATCH_ATTRIBUTES)[number];

export const SECURE_SUBROLE = 'AXSecureTextField';

/** Roles whose AXValue is their visible text: their label when they have no title (read only then). */
const CONTENT_ROLES = new Set(['AXStaticText', 'AXHeading', 'AXCell', 'AXLink']);

/** Roles whose AXValue is what they hold — a field's text, a number, a choice, on/off — read always (never when secure). */
const FIELD_ROLES = new Set([
  'AXTextField', 'AXTextArea', 'AXComboBox', 'AXPopUpButton', 'AXMenuButton', 'AXDateField', 'AXSlider', 'AXIncrementor',
  'AXProgressIndicator', 'AXLevelIndicator', 'AXValueIndicator', 'AXCheckBox', 'AXRadioButton', 'AXSwitch', 'AXDisclosureTriangle',
]);

/** Roles whose number means on (1), off (0) or mixed (2). */
const TOGGLE_ROLES = new Set(['AXCheckBox', 'AXRadioButton', 'AXSwitch', 'AXDisclosureTriangle']);

const ACTIONABLE_ROLES = new Set([
  'AXButton', 'AXCheckBox', 'AXRadioButton', 'AXMenuItem', 'AXMenuBarItem', 'AXPopUpButton', 'AXMenuButton',
  'AXLink', 'AXDisclosureTriangle', 'AXComboBox', 'AXIncrementor', 'AXTab', 'AXSwitch', 'AXColorWell', 'AXDockItem',
]);

/**
 * An element's identity (ElementNode.identity): its AXRole and CFHash. CFHash agrees with CFEqual,
 * and two AXUIElementRefs for one element are CFEqual, so the hit test (axHitTest.ts) names an
 * element the way the tree did although it holds another reference to it.
 */
export function axIdentity(role: string | null, hash: number): string {
  return `${role ?? '?'}#${hash}`;
}

/** Subroles that name the element better than their role. */
const SUBROLE_NAMES: Readonly<Record<string, string>> = {
  AXSearchField: 'SearchField',
  AXSwitch: 'Switch',
  AXToggle: 'ToggleButton',
  AXTabButton: 'Tab',
  AXDialog: 'Dialog',
  AXSystemDialog: 'Dialog',
  AXSheet: 'Sheet',
};

/** "AXButton" → "Button"; a few subroles refine it ("AXTextField"/"AXSearchField" → "SearchField"). */
export function treeRole(role: string | null, subrole: string | null): string {
  if (subrole && SUBROLE_NAMES[subrole]) return SUBROLE_NAMES[subrole];
  if (!role) return 'Unknown';
  const bare = role.startsWith('AX') ? role.slice(2) : role;
  return bare.length > 0 ? bare : 'Unknown';
}

export function isSecure(role: string | null, subrole: string | null): boolean {
  return subrole === SECURE_SUBROLE || role === SECURE_SUBROLE;
}

/** Roles that take typed text (secure fields too: they are typed into, never read). */
const EDITABLE_ROLES = new Set(['AXTextField', 'AXTextArea', 'AXComboBox']);

export function isEditableRole(role: string | null, subrole: string | null): boolean {
  return (role !== null && EDITABLE_ROLES.has(role)) || isSecure(role, subrole);
}

export function isActionableRole(role: string | null): boolean {
  return role !== null && ACTIONABLE_ROLES.has(role);
}

/** Whether AXValue should be fetched: never for secure fields; for fields always, for content roles when untitled. */
export function wantsValue(role: string | null, subrole: string | null, title: string): boolean {
  if (isSecure(role, subrole) || role === null) return false;
  return FIELD_ROLES.has(role) || (title === '' && CONTENT_ROLES.has(role));
}

/** The element's label: AXTitle, else AXDescription, else (static text, headings, cells, links) their AXValue. */
export function elementText(fields: { role: string | null; title: string | null; value: unknown; description: string | null; secure: boolean }): string {
  if (fields.title) return fields.title;
  if (fields.description) return fields.description;
  if (!fields.secure && fields.role !== null && CONTENT_ROLES.has(fields.role) && typeof fields.value === 'string') return fields.value;
  return '';
}

/** What a field holds, from its AXValue: text, a number, "checked"/"unchecked"/"mixed". Never for a secure field. */
export function elementValue(fields: { role: string | null; value: unknown; secure: boolean }): string | undefined {
  if (fields.secure || fields.role === null || !FIELD_ROLES.has(fields.role)) return undefined;
  const { value } = fields;
  if (TOGGLE_ROLES.has(fields.role)) {
    if (typeof value === 'number') return value === 1 ? 'checked' : value === 2 ? 'mixed' : 'unchecked';
    if (typeof value === 'boolean') return value ? 'checked' : 'unchecked';
    return undefined;
  }
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(Math.round(value * 10_000) / 10_000);
  return undefined;
}

/**
 * Closed menus are not walked: a menu bar item's AXMenu holds every item of the menu (hundreds
 * across the bar) although none is on screen. An open menu (its bar item selected) is walked.
 */
export function shouldDescend(role: string | null, selected: boolean): boolean {
  return !(role === 'AXMenuBarItem' && !selected);
}

export interface AxFields {
  role: string | null;
  subrole: string | null;
  title: string | null;
  description: string | null;
  bounds: Rect | null;
  enabled: boolean;
  focused: boolean;
  selected: boolean | undefined;
  /** Borrowed from the batch array: valid while its scope is open. */
  children: NullableRef[];
}

export interface TreeWalkOptions {
  /** Display rectangles (points) used for the visible flag. */
  screens: Rect[];
  /** CGWindowList windows of the app, to map AX windows to ids when the private call is missing. */
  windowBounds: Array<{ windowId: number; bounds: Rect | null }>;
  now?: () => number;
}

function sameRect(a: Rect | null, b: Rect | null): boolean {
  return !!a && !!b && Math.abs(a.x - b.x) < 1 && Math.abs(a.y - b.y) < 1 && Math.abs(a.width - b.width) < 1 && Math.abs(a.height - b.height) < 1;
}

export class AxTreeReader {
  private readonly manualAccessibilityTried = new Set<number>();
  /** Apps that accepted AXManualAccessibility and have not been read since. */
  private readonly treeFillingIn = new Set<number>();

  constructor(
    private readonly session: AxSession,
    private readonly registry: AxElementRegistry,
  ) {}

  /** One IPC: every batch attribute of `element`, decoded. Null when the element is gone. */
  readFields(scope: CFScope, element: Ref): { error: number; fields: AxFields | null } {
    const { ax } = this.session.native;
    const decoder = this.session.decoder;
    const out: NullableRef[] = [null];
    const error = ax.AXUIElementCopyMultipleAttributeValues(element, this.session.names(BATCH_ATTRIBUTES), 0, out);
    if (error !== AXErrorCode.success) return { error, fields: null };
    const values = decoder.arrayItems(scope.adopt(out[0]));
    const slot = (name: BatchAttribute): NullableRef => values[BATCH_ATTRIBUTES.indexOf(name)] ?? null;
    const position = decoder.axValue(slot('AXPosition'));
    const size = decoder.axValue(slot('AXSize'));
    const bounds = position?.type === 'point' && size?.type === 'size' ? { x: position.x, y: position.y, width: size.width, height: size.height } : null;
    const selected = decoder.boolean(slot('AXSelected'));
    return {
      error,
      fields: {
        role: decoder.string(slot('AXRole')),
        subrole: decoder.string(slot('AXSubrole')),
        title: decoder.string(slot('AXTitle')),
        description: decoder.string(slot('AXDescription')),
        bounds,
        enabled: decoder.boolean(slot('AXEnabled')) ?? true,
        focused: decoder.boolean(slot('AXFocused')) ?? false,
        selected: selected ?? undefined,
        children: decoder.arrayItems(slot('AXChildren')).filter((child) => decoder.isElement(child)),
      },
    };
  }

  /**
   * Chromium/Electron apps build their tree only for assistive apps that ask: set
   * AXManualAccessibility once per pid. Its return code is unreliable (?), so a success only
   * means the first read waits while the tree is still growing.
   */
  private enableManualAccessibility(pid: number, app: Ref): void {
    if (this.manualAccessibilityTried.has(pid)) return;
    this.manualAccessibilityTried.add(pid);
    const { ax, cf } = this.session.native;
    const result = ax.AXUIElementSetAttributeValue(app, this.session.name('AXManualAccessibility'), cf.kCFBooleanTrue);
    if (result === AXErrorCode.success) this.treeFillingIn.add(pid);
  }

  async snapshot(pid: number, limits: SnapshotLimits, progress: Progress, options: TreeWalkOptions): Promise<TreeSnapshot> {
    const app = this.session.app(pid);
    this.enableManualAccessibility(pid, app);
    let snapshot = await this.walk(pid, app, limits, progress, options);
    if (this.treeFillingIn.delete(pid)) {
      // Just switched on: a Chromium app builds its tree asynchronously. Re-read every 250 ms
      // until it has grown and then held still (≤ 2 s), once per app; later snapshots read it
      // straight away.
      const initial = snapshot.elements.length;
      const until = Math.min(progress.deadline, Date.now() + 2000);
      while (Date.now() < until && !snapshot.truncated) {
        await sleep(250, progress);
        const again = await this.walk(pid, app, limits, progress, options);
        const settled = again.elements.length <= snapshot.elements.length && again.elements.length > initial;
        snapshot = again;
        if (settled) break;
      }
    }
    return snapshot;
  }

  private async walk(pid: number, app: Ref, limits: SnapshotLimits, progress: Progress, options: TreeWalkOptions): Promise<TreeSnapshot> {
    const now = options.now ?? Date.now;
    const started = now();
    const deadline = Math.min(progress.deadline, started + limits.maxMs);
    const generation = this.registry.begin(pid);
    const elements: ElementNode[] = [];
    let truncated: TreeSnapshot['truncated'];
    const truncate = (reason: TruncationReason, detail: string): void => {
      truncated ??= { reason, detail };
    };
    let appName = `pid ${pid}`;

    // Explicit stack for pre-order: element indexes follow document order.
    type Item = { ref: Ref; depth: number; parentIndex: number | null; windowId?: number };
    const stack: Item[] = [{ ref: app, depth: 0, parentIndex: null }];
    let lastYield = started;
    const openScopes: CFScope[] = [];
    try {
      while (stack.length > 0) {
        // Yield every 50 elements or 100 ms (a slow app answers each call slowly): aborts, the
        // guard's heartbeat and the overlay keep running during a long walk.
        if (elements.length % 50 === 0 || now() - lastYield > 100) {
          throwIfAborted(progress);
          await new Promise<void>((resolve) => setImmediate(resolve));
          lastYield = now();
        }
        if (now() > deadline) {
          truncate('time', `stopped after ${Math.round(now() - started)} ms with ${elements.length} elements`);
          break;
        }
        if (elements.length >= limits.maxElements) {
          truncate('count', `stopped at ${limits.maxElements} elements`);
          break;
        }
        const item = stack.pop()!;
        const scope = new CFScope(this.session.native.cf);
        openScopes.push(scope);
        const { error, fields } = this.readFields(scope, item.ref);
        if (!fields) {
          if (item.parentIndex === null) {
            if (error === AXErrorCode.invalidUIElement) {
              this.session.forgetApp(pid);
              throw new TandemError('app-gone', `The app with pid ${pid} is no longer running.`);
            }
            throw axErrorToTandem(error, { operation: 'reading the accessibility tree', app: appName });
          }
          continue; // a child that vanished mid-walk: skip it
        }
        if (item.parentIndex === null && fields.title) appName = fields.title;
        const secure = isSecure(fields.role, fields.subrole);
        const title = fields.title ?? '';
        const value = wantsValue(fields.role, fields.subrole, title) ? this.session.decoder.plain(this.session.copy(scope, item.ref, 'AXValue').value) : null;
        const whole = elementValue({ role: fields.role, value, secure });
        // AXValue comes whole (a big document too): what goes into the tree is cut like on Linux, and marked.
        const held = whole === undefined ? undefined : firstCharacters(whole, LIMITS.readValueChars);
        let windowId = item.windowId;
        if (fields.role === 'AXWindow') {
          windowId = this.session.windowIdOf(item.ref) ?? options.windowBounds.find((w) => sameRect(w.bounds, fields.bounds))?.windowId ?? windowId;
        }
        const index = elements.length;
        const handle = this.registry.retain(pid, generation, item.ref);
        const bounds = fields.bounds;
        elements.push({
          index,
          parentIndex: item.parentIndex,
          depth: item.depth,
          role: treeRole(fields.role, fields.subrole),
          text: elementText({ role: fields.role, title: fields.title, value, description: fields.description, secure }),
          ...(held !== undefined ? { value: held.text } : {}),
          ...(held?.truncated ? { valueTruncated: true } : {}),
          editable: isEditableRole(fields.role, fields.subrole),
          // AXTextField (search and secure fields too) holds one line; AXTextArea many.
          ...(fields.role === 'AXTextField' ? { singleLine: true } : {}),
          bounds,
          visible: !!bounds && bounds.width > 0 && bounds.height > 0 && options.screens.some((s) => rectsIntersect(s, bounds)),
          enabled: fields.enabled,
          focused: fields.focused,
          actionable: isActionableRole(fields.role),
          secure,
          selected: fields.selected,
          windowId,
          identity: axIdentity(fields.role, this.session.native.cf.CFHash(item.ref)),
          handle,
        });
        if (fields.children.length === 0) continue;
        if (item.depth + 1 > limits.maxDepth) {
          truncate('depth', `elements deeper than ${limits.maxDepth} levels were left out`);
          continue;
        }
        if (!shouldDescend(fields.role, fields.selected ?? false)) continue;
        for (let i = fields.children.length - 1; i >= 0; i--) {
          stack.push({ ref: fields.children[i] as Ref, depth: item.depth + 1, parentIndex: index, windowId });
        }
      }
    } finally {
      // Children are borrowed from their parent's batch array: release every batch only now.
      for (const scope of openScopes) scope.close();
    }
    return { pid, app: appName, elements, truncated, elapsedMs: Math.round(now() - started) };
  }
}
