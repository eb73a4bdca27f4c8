// What the AT-SPI snapshot asks an app for, against a recording stand-in for the bus: fields'
// values and labels, combo choices, check states, a long document cut at the read cap — and
// never a single request for anything of a password field but its name and place.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { IFACE, NULL_PATH, type CacheItem } from '../../native/linux/atspiProtocol.js';
import { ROLE_NAMES } from '../../native/linux/atspiRoles.js';
import { STATE } from '../../native/linux/atspiStates.js';
import type { AtspiBus, AtspiCall } from '../../src/backends/linux/atspiBus.js';
import { AtspiTree, VALUE_READ_CAP } from '../../src/backends/linux/atspiTree.js';
import { createProgress } from '../../src/core/progress.js';

const BUS = ':1.5';
const ROOT = '/org/a11y/atspi/accessible/root';
const role = (name: string): number => ROLE_NAMES.indexOf(name);
const states = (...bits: number[]): number[] => {
  const words = [0, 0];
  for (const bit of bits) words[bit >> 5] = (words[bit >> 5] | (1 << (bit & 31))) >>> 0;
  return words;
};
const ON_SCREEN = [STATE.showing, STATE.visible, STATE.sensitive];
const FIELD_IFACES = [IFACE.accessible, IFACE.component, IFACE.text, IFACE.editableText];

interface Node {
  path: string;
  role: string;
  name?: string;
  ifaces?: string[];
  states?: number[];
  children?: Node[];
  text?: string;
  labelledBy?: string;
  selectedChild?: string;
  /** What GetActions answers (default: one click action). */
  actions?: string[];
}

const SECRET = 'Tr0ub4dor-secret';
const document = 'd'.repeat(VALUE_READ_CAP + 50);

const app: Node = {
  path: ROOT,
  role: 'application',
  name: 'notes',
  children: [
    {
      path: '/frame',
      role: 'frame',
      name: 'Notes',
      states: states(...ON_SCREEN),
      children: [
        { path: '/memo-label', role: 'label', name: 'Memo', states: states(...ON_SCREEN) },
        { path: '/memo', role: 'text', ifaces: FIELD_IFACES, states: states(...ON_SCREEN, STATE.editable), text: 'hello world', labelledBy: '/memo-label' },
        { path: '/pass-label', role: 'label', name: 'Passphrase', states: states(...ON_SCREEN) },
        { path: '/pass', role: 'password text', ifaces: FIELD_IFACES, states: states(...ON_SCREEN, STATE.editable), text: SECRET, labelledBy: '/pass-label' },
        { path: '/bold', role: 'check box', name: 'Bold', ifaces: [IFACE.accessible, IFACE.component, IFACE.action], states: states(...ON_SCREEN, STATE.checked) },
        { path: '/wrap', role: 'check box', name: 'Wrap', ifaces: [IFACE.accessible, IFACE.component, IFACE.action], states: states(...ON_SCREEN, STATE.indeterminate) },
        {
          path: '/align',
          role: 'combo box',
          name: 'Left', // GTK 3 names an unnamed combo box after its choice
          ifaces: [IFACE.accessible, IFACE.component, IFACE.selection],
          states: states(...ON_SCREEN),
          labelledBy: '/align-label',
          selectedChild: '/align-left',
          children: [{ path: '/align-menu', role: 'menu', states: states(STATE.visible), children: [{ path: '/align-left', role: 'menu item', name: 'Left' }] }],
        },
        { path: '/align-label', role: 'label', name: 'Alignment', states: states(...ON_SCREEN) },
        {
          path: '/speed',
          role: 'combo box',
          name: 'Speed', // Gecko: named by its label, no Selection interface; the list's selected item is the choice
          ifaces: [IFACE.accessible, IFACE.component, IFACE.action],
          states: states(...ON_SCREEN),
          children: [
            {
              path: '/speed-list',
              role: 'menu',
              states: states(STATE.visible),
              children: [
                { path: '/speed-standard', role: 'menu item', name: 'Standard', states: states(STATE.visible, STATE.selectable) },
                { path: '/speed-express', role: 'menu item', name: 'Express', states: states(STATE.visible, STATE.selectable, STATE.selected) },
              ],
            },
          ],
        },
        {
          path: '/size',
          role: 'combo box',
          name: 'Size', // Chromium: no Selection of its own, its text an embedded object (its popup list)
          ifaces: [IFACE.accessible, IFACE.component, IFACE.action, IFACE.text],
          states: states(...ON_SCREEN),
          text: '\uFFFC',
          children: [
            {
              path: '/size-list',
              role: 'menu',
              ifaces: [IFACE.accessible, IFACE.component, IFACE.selection],
              states: states(),
              selectedChild: '/size-large',
              children: [
                { path: '/size-small', role: 'menu item', name: 'Small' },
                { path: '/size-large', role: 'menu item', name: 'Large' },
              ],
            },
          ],
        },
        {
          path: '/font',
          role: 'combo box',
          name: 'Font', // an editable combo box: its text is what it holds, whatever its list selects
          ifaces: [IFACE.accessible, IFACE.component, IFACE.text],
          states: states(...ON_SCREEN, STATE.editable),
          text: 'Typed Sans',
          children: [{ path: '/font-list', role: 'menu', ifaces: [IFACE.accessible, IFACE.selection], states: states(), selectedChild: '/font-other', children: [{ path: '/font-other', role: 'menu item', name: 'Other Serif' }] }],
        },
        {
          path: '/empty-choice',
          role: 'combo box',
          name: 'Colour', // the same with nothing chosen: its text says nothing either
          ifaces: [IFACE.accessible, IFACE.component, IFACE.text],
          states: states(...ON_SCREEN),
          text: '\uFFFC',
        },
        { path: '/doc', role: 'text', ifaces: FIELD_IFACES, states: states(...ON_SCREEN, STATE.editable), text: document },
        { path: '/hidden', role: 'text', ifaces: FIELD_IFACES, states: states(STATE.editable), text: 'not on screen' },
      ],
    },
  ],
};

function flatten(node: Node, parent: string | null, index: number, out: Array<{ node: Node; parent: string | null; index: number }>): void {
  out.push({ node, parent, index });
  (node.children ?? []).forEach((child, i) => flatten(child, node.path, i, out));
}

/** Answers the snapshot's calls from `app`, recording every one. */
class RecordingBus {
  readonly calls: AtspiCall[] = [];
  readonly properties: Array<{ path: string; iface: string; property: string }> = [];
  private readonly byPath = new Map<string, Node>();
  private readonly items: CacheItem[] = [];

  constructor(root: Node) {
    const all: Array<{ node: Node; parent: string | null; index: number }> = [];
    flatten(root, null, -1, all);
    for (const { node, parent, index } of all) {
      this.byPath.set(node.path, node);
      this.items.push([
        [BUS, node.path],
        [BUS, ROOT],
        parent === null ? [':1.0', ROOT] : [BUS, parent],
        index,
        node.children?.length ?? 0,
        node.ifaces ?? [IFACE.accessible, IFACE.component],
        node.name ?? '',
        role(node.role),
        '',
        node.states ?? states(),
      ]);
    }
  }

  async registerEvent(): Promise<void> {}

  async call(request: AtspiCall): Promise<unknown[]> {
    this.calls.push(request);
    const node = this.byPath.get(request.path);
    switch (`${request.interface}.${request.member}`) {
      case `${IFACE.cache}.GetItems`:
        return [this.items];
      case `${IFACE.component}.GetExtents`:
        return [[10, 10, 100, 20]];
      case `${IFACE.action}.GetActions`:
        return [(node?.actions ?? ['click']).map((name) => [name, '', ''])];
      case `${IFACE.accessible}.GetRelationSet`:
        return [node?.labelledBy ? [[2, [[BUS, node.labelledBy]]]] : []];
      case `${IFACE.text}.GetText`: {
        const [start, end] = request.body as [number, number];
        return [(node?.text ?? '').slice(start, end)];
      }
      case `${IFACE.selection}.GetSelectedChild`:
        return [[BUS, node?.selectedChild ?? NULL_PATH]];
      default:
        throw new Error(`unexpected call ${request.interface}.${request.member} on ${request.path}`);
    }
  }

  async getProperty(_destination: string, path: string, iface: string, property: string): Promise<unknown> {
    this.properties.push({ path, iface, property });
    if (iface === IFACE.application) return property === 'ToolkitName' ? 'GTK' : '3.24.38';
    if (iface === IFACE.accessible && property === 'Name') return this.byPath.get(path)?.name ?? '';
    throw new Error(`unexpected property ${iface}.${property} of ${path}`);
  }

  async getAllProperties(): Promise<Record<string, unknown>> {
    throw new Error('no live reads expected: the cache is complete');
  }
}

async function snapshot(): Promise<{ bus: RecordingBus; elements: Awaited<ReturnType<AtspiTree['snapshot']>>['elements'] }> {
  const bus = new RecordingBus(app);
  const tree = new AtspiTree(bus as unknown as AtspiBus);
  const result = await tree.snapshot({ pid: 42, name: 'notes', busName: BUS, rootPath: ROOT }, { maxDepth: 20, maxElements: 1000, maxMs: 5000 }, createProgress({ timeoutMs: 5000 }));
  return { bus, elements: result.elements };
}

test('should never ask a password field for its text, its length or anything else that holds it', async () => {
  const { bus, elements } = await snapshot();
  const asked = bus.calls.filter((call) => call.path === '/pass').map((call) => `${call.interface}.${call.member}`);
  assert.deepEqual(asked.sort(), [`${IFACE.accessible}.GetRelationSet`, `${IFACE.component}.GetExtents`], 'only where it is and what labels it');
  assert.deepEqual(bus.properties.filter((property) => property.path === '/pass'), []);
  const field = elements.find((el) => el.role === 'PasswordText')!;
  assert.deepEqual([field.text, field.value, field.secure, field.editable], ['Passphrase', undefined, true, true]);
  assert.ok(!JSON.stringify(elements.map(({ handle: _handle, ...rest }) => rest)).includes(SECRET));
});

test('should name a field after its label and give what it holds as its value', async () => {
  const { elements } = await snapshot();
  const memo = elements.find((el) => el.role === 'Text' && el.text === 'Memo')!;
  assert.deepEqual([memo.value, memo.editable, memo.valueTruncated], ['hello world', true, undefined]);
  assert.equal(elements.find((el) => el.role === 'Label' && el.text === 'Memo')?.editable, false);
});

test('should give check states and a combo box choice as values, the combo named by its label', async () => {
  const { elements } = await snapshot();
  const bold = elements.find((el) => el.text === 'Bold')!;
  assert.deepEqual([bold.value, bold.selected], ['checked', undefined], 'on/off is the value, not "selected"');
  assert.equal(elements.find((el) => el.text === 'Wrap')?.value, 'mixed');
  const combo = elements.find((el) => el.role === 'ComboBox')!;
  assert.deepEqual([combo.text, combo.value], ['Alignment', 'Left']);
  const gecko = elements.find((el) => el.role === 'ComboBox' && el.text === 'Speed')!;
  assert.equal(gecko.value, 'Express', 'without Selection, the selected item of its own list');
});

test("should give a Chromium select's chosen option as its value, never the embedded object character of its text", async () => {
  const { bus, elements } = await snapshot();
  const chromium = elements.find((el) => el.role === 'ComboBox' && el.text === 'Size')!;
  assert.equal(chromium.value, 'Large', "the choice of its popup list's Selection");
  assert.ok(bus.calls.some((call) => call.path === '/size-list' && call.member === 'GetSelectedChild'), 'the hidden popup list is asked for its choice');
  const unchosen = elements.find((el) => el.role === 'ComboBox' && el.text === 'Colour')!;
  assert.equal(unchosen.value, undefined, 'text made only of U+FFFC is no value');
  assert.equal(elements.find((el) => el.role === 'ComboBox' && el.text === 'Font')?.value, 'Typed Sans', 'text that says something stays the value');
  assert.ok(!bus.calls.some((call) => call.path === '/font-list'), 'its list is not asked');
});

test('should read a long document up to the cap, asking for one character more to know it is cut', async () => {
  const { bus, elements } = await snapshot();
  const doc = elements.find((el) => el.role === 'Text' && el.text === '' && el.visible)!;
  assert.equal(doc.value?.length, VALUE_READ_CAP);
  assert.equal(doc.valueTruncated, true);
  const read = bus.calls.find((call) => call.path === '/doc' && call.member === 'GetText')!;
  assert.deepEqual(read.body, [0, VALUE_READ_CAP + 1]);
});

test('should not read the value of a field that is not on screen', async () => {
  const { bus, elements } = await snapshot();
  assert.ok(!bus.calls.some((call) => call.path === '/hidden' && call.member === 'GetText'));
  assert.equal(elements.find((el) => el.identity === `${BUS}/hidden`)?.value, undefined);
});

test('should ask an element for its actions until it offers one, then remember them', async () => {
  const cell: Node = { path: '/cell', role: 'table cell', name: 'Andrea', ifaces: [IFACE.accessible, IFACE.component, IFACE.action], states: states(...ON_SCREEN) };
  const icon: Node = { path: '/icon', role: 'icon', name: 'refresh', ifaces: [IFACE.accessible, IFACE.component, IFACE.action], states: states(...ON_SCREEN), actions: [] };
  const list: Node = { path: ROOT, role: 'application', name: 'list', children: [{ path: '/frame', role: 'frame', name: 'List', states: states(...ON_SCREEN), children: [cell, icon] }] };
  const bus = new RecordingBus(list);
  const tree = new AtspiTree(bus as unknown as AtspiBus);
  const read = async (): Promise<Awaited<ReturnType<AtspiTree['snapshot']>>['elements']> =>
    (await tree.snapshot({ pid: 42, name: 'list', busName: BUS, rootPath: ROOT }, { maxDepth: 20, maxElements: 1000, maxMs: 5000 }, createProgress({ timeoutMs: 5000 }))).elements;
  const asked = (path: string): number => bus.calls.filter((call) => call.path === path && call.member === 'GetActions').length;

  const first = await read();
  assert.deepEqual([first.find((el) => el.text === 'Andrea')?.actionable, first.find((el) => el.text === 'refresh')?.actionable], [true, false]);
  icon.actions = ['activate'];
  const second = await read();
  assert.equal(asked('/cell'), 1, 'a cell seen offering actions is not asked again');
  assert.equal(asked('/icon'), 2, 'one seen without any is asked each time');
  assert.deepEqual([second.find((el) => el.text === 'Andrea')?.actionable, second.find((el) => el.text === 'refresh')?.actionable], [true, true]);
});
