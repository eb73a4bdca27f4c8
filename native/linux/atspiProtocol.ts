// AT-SPI2 protocol constants: bus names, object paths, interfaces and D-Bus signatures used by
// the Linux backend. Values come from the AT-SPI2 D-Bus specification (at-spi2-core xml/).

export const A11Y_LAUNCHER = {
  destination: 'org.a11y.Bus',
  path: '/org/a11y/bus',
  interface: 'org.a11y.Bus',
} as const;

export const REGISTRY_BUS_NAME = 'org.a11y.atspi.Registry';
export const REGISTRY_PATH = '/org/a11y/atspi/registry';
/** The desktop (registry) root and every application's root share this path. */
export const ROOT_PATH = '/org/a11y/atspi/accessible/root';
export const CACHE_PATH = '/org/a11y/atspi/cache';
/** The "no object" reference some toolkits send instead of a parent. */
export const NULL_PATH = '/org/a11y/atspi/null';

export const DBUS_DAEMON = {
  destination: 'org.freedesktop.DBus',
  path: '/org/freedesktop/DBus',
  interface: 'org.freedesktop.DBus',
} as const;

export const IFACE = {
  accessible: 'org.a11y.atspi.Accessible',
  action: 'org.a11y.atspi.Action',
  application: 'org.a11y.atspi.Application',
  cache: 'org.a11y.atspi.Cache',
  component: 'org.a11y.atspi.Component',
  editableText: 'org.a11y.atspi.EditableText',
  registry: 'org.a11y.atspi.Registry',
  selection: 'org.a11y.atspi.Selection',
  text: 'org.a11y.atspi.Text',
  value: 'org.a11y.atspi.Value',
  properties: 'org.freedesktop.DBus.Properties',
  eventObject: 'org.a11y.atspi.Event.Object',
  eventWindow: 'org.a11y.atspi.Event.Window',
} as const;

/** AtspiCoordType: screen coordinates. */
export const COORD_TYPE_SCREEN = 0;
/** Geometry of an unmapped widget (GTK sends INT_MIN). */
export const OFFSCREEN_COORDINATE = -2147483648;

/** Object reference `(so)`: bus name, object path. */
export type ObjectRef = [busName: string, path: string];

/**
 * One `org.a11y.atspi.Cache.GetItems` entry, signature `((so)(so)(so)iiassusau)`:
 * self, application, parent, index in parent (-1 unknown), child count (-1 unknown),
 * interfaces, name, role, description, state words.
 */
export type CacheItem = [
  self: ObjectRef,
  application: ObjectRef,
  parent: ObjectRef,
  indexInParent: number,
  childCount: number,
  interfaces: string[],
  name: string,
  role: number,
  description: string,
  states: number[],
];

export const CACHE_ITEM_SIGNATURE = 'a((so)(so)(so)iiassusau)';

/** Events a client must register for before toolkits emit them (Registry.RegisterEvent). */
export const SETTLE_EVENTS = [
  'object:children-changed',
  'object:property-change',
  'object:state-changed',
  'object:text-changed',
  'object:text-caret-moved',
  'object:selection-changed',
  'object:visible-data-changed',
  'window:',
] as const;
