// The element/tree model shared by every layer. Pure data: no OS, no protocol.

export interface Point {
  x: number;
  y: number;
}

/** Screen rectangle in points (global coordinates, top-left of the primary display, y down). */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Canonical modifier names. Aliases (cmd, option, ctrl, super…) are resolved in `keys.ts`. */
export type Modifier = 'shift' | 'control' | 'alt' | 'meta' | 'fn';

export interface RunningApp {
  pid: number;
  name: string;
  /** Bundle id on macOS, .desktop id or executable on Linux, when known. */
  id?: string;
}

/** A process an action started (Desktop.launchedSince). */
export interface LaunchedProcess extends RunningApp {
  /** Its arguments, program first, where the platform tells them (Linux /proc/<pid>/cmdline). */
  commandLine?: readonly string[];
}

export interface WindowInfo {
  /** Backend window id (X11 window, CGWindowID). */
  windowId: number;
  pid: number;
  title: string;
  bounds: Rect | null;
  /** The owning process's name, where the backend knows it (X11: /proc comm; macOS: the window's owner name). */
  app?: string;
  /** Stacking position among all listed windows: 0 is the frontmost. */
  zOrder?: number;
  /** Shown on the current screen: not minimised, hidden or on another workspace. */
  onScreen?: boolean;
  /**
   * Whether `pid` is known to own the window, not only claimed by it: X11's _NET_WM_PID is the
   * app's own word (a sandboxed app gives its namespace's pid, a remote client another
   * machine's); true when the X server's kernel-given credentials agree, false when they
   * disagree or the window comes from another host, absent when nothing can tell (and on
   * macOS, whose window server reports the owner itself). kill_app signals no pid on a false one.
   */
  pidVerified?: boolean;
}

/** One display (monitor) of the desktop. */
export interface Display {
  /** Backend id (CGDirectDisplayID; the RandR monitor's name atom on X11). */
  id: number;
  /** Global screen points, the space of tree coordinates. */
  bounds: Rect;
  /** Image pixels per point (2 on Retina; 1 on X11). */
  scale: number;
  primary: boolean;
}

export interface Frontmost {
  pid: number;
  app: string;
  windowId?: number;
}

/**
 * One accessibility element. `handle` is opaque to core: only the backend that produced it can
 * act on it, and only while the snapshot is fresh (a later action may find it stale).
 */
export interface ElementNode {
  /** Stable within one snapshot: pre-order position. This is the `element_index` tools accept. */
  index: number;
  parentIndex: number | null;
  depth: number;
  /** Role in PascalCase without platform prefix, e.g. "PushButton", "Text", "Window". */
  role: string;
  /**
   * The element's label: its accessible name, else its description (tooltip). A secure field
   * keeps it (its label is not secret, and the model must be able to target the field).
   */
  text: string;
  /**
   * What the element holds, apart from its label: an editable field's text, a slider's or spin
   * button's number, a combo box's selection, "checked"/"unchecked" for check boxes, radio and
   * toggle buttons. Absent where there is none. Never set for a secure field: a backend must not
   * even ask for a password field's value (not its length either), and core ignores one anyway.
   */
  value?: string;
  /**
   * The backend read only the start of a long value (a big document): more of it exists in the
   * app. Trees and diffs mark the cut; a change past it is not seen.
   */
  valueTruncated?: boolean;
  /**
   * Takes typed text (an entry, a text area, a document open for editing), as the backend knows
   * it (AT-SPI's editable state, AX text roles). Absent: unknown, and core goes by the role.
   */
  editable?: boolean;
  /**
   * A one-line field (an entry, not a text area), as the backend knows it (AT-SPI's single-line
   * state, AXTextField): a line break inserted there would be a character, not a new line.
   */
  singleLine?: boolean;
  bounds: Rect | null;
  /** On screen and not hidden (showing+visible on AT-SPI, on-screen frame on AX). */
  visible: boolean;
  enabled: boolean;
  focused: boolean;
  /** Offers a press/activate action. */
  actionable: boolean;
  /** Password/secure field: its value is never read, stored or written anywhere. */
  secure: boolean;
  /**
   * Selected in a list, table, tab strip or menu (absent where the element cannot be). Whether a
   * check box or toggle is on is its value ("checked"/"unchecked"), not this.
   */
  selected?: boolean;
  /** Window this element belongs to, when the backend knows it (else core's match of its top-level element: tree/windowFacts.ts). */
  windowId?: number;
  /** A top-level window (dialog) that blocks the app's other windows while it is open (AT-SPI MODAL, AXModal). */
  modal?: boolean;
  /** element_index of the modal dialog that blocks this element's window: it takes no input while the dialog is open. */
  blockedBy?: number;
  /** Not visible only because another window stacked above covers its centre (that window's id): scrolling would not reveal it. */
  coveredBy?: number;
  /** Backend-stable identity (AT-SPI object path, AX element hash) used to match across snapshots. */
  identity?: string;
  handle: unknown;
}

export type TruncationReason = 'depth' | 'count' | 'time';

export interface TreeSnapshot {
  pid: number;
  app: string;
  elements: ElementNode[];
  /** Set when a cap cut the traversal short; the file and the summary say so. */
  truncated?: { reason: TruncationReason; detail: string };
  /** Milliseconds the traversal took (for the summary and the bench). */
  elapsedMs: number;
  /**
   * The app reported changes (accessibility events) while it was being read: parts of the tree
   * may be older than others. Absent where the backend cannot observe events.
   */
  changedWhileReading?: boolean;
  /** The app's UI toolkit and version as it reports them ("Qt 5.15.8", "Chromium 156…"), when known. */
  toolkit?: string;
  /**
   * Every window of the desktop (all apps, with their stacking order) and the displays, read
   * with the tree where the backend can: core clips `visible` and finds the modal dialog's
   * blocked windows with them (tree/windowFacts.ts). Absent: the tree is taken as the backend gave it.
   */
  windows?: WindowInfo[];
  displays?: Display[];
}

/** Uncompressed pixels, 4 bytes each, row after row with no padding. */
export interface RawImage {
  data: Buffer;
  width: number;
  height: number;
  /** 'rgba': R, G, B, opaque A. 'bgrx': B, G, R, then a byte that is not alpha (core reorders it). */
  order: 'rgba' | 'bgrx';
}

interface ScreenshotBase {
  /** Screen rectangle (points) the image covers, to map a screen point onto the image. */
  bounds: Rect;
  /** Image pixels per point (2 on Retina). */
  scale: number;
}

/**
 * A capture: a PNG where the platform gives one, or raw pixels that core encodes once, with
 * the crosshair drawn in (encoding, decoding and encoding again cost ~10 ms per screenshot).
 */
export type Screenshot = (ScreenshotBase & { png: Buffer; raw?: undefined }) | (ScreenshotBase & { raw: RawImage; png?: undefined });

export type PermissionState = 'granted' | 'denied' | 'unknown' | 'not-applicable';

export interface PermissionCheck {
  /** Stable id: "accessibility", "screen-recording", "display", "xtest", "xinput", "atspi-bus"… */
  id: string;
  title: string;
  state: PermissionState;
  detail: string;
  /** What the person should do when the state is not granted. */
  remedy?: string;
  /** A settings deep link or command the UI can offer. */
  action?: { kind: 'open-url' | 'run-command'; value: string };
}
