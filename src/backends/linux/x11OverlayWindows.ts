// The overlay the server itself draws on X11 while the guard holds the person's input: an
// orange frame around every monitor (RandR 1.5 monitors) and, at the top of each, the label
// saying what is happening and that Esc gives control back — the look of the app's renderer
// overlay (docs/screenshots/overlay.png), for `tandem mcp --direct`, `tandem serve` and the
// Linux app, where no transparent Electron window can be relied on (they need a compositor).
//
// Plain core-protocol windows on the server's own X connection:
// - override-redirect: the window manager never manages, focuses or decorates them;
// - an empty input shape (SHAPE): every click goes through to whatever lies under them;
// - solid colours and a shaped label, so no compositor is needed;
// - four thin strips per monitor rather than one full-screen window, so nothing covers the apps;
// - the server's own resources: when the server dies (kill -9 included) the X server destroys
//   them with its connection; no helper process could outlive it.
// Tandem's window screenshots (Composite, the target's own window) never contain them.

import type { XEvent } from 'x11';
import type { Rect } from '../../core/model.js';
import type { X11Connection } from '../../../native/linux/x11Connection.js';
import { randr15Opcode, readMonitors } from './x11Monitors.js';
import { extensionOpcode } from './x11Extensions.js';
import { SHAPE_KIND, parseShapeVersion, shapeQueryVersionRequest, shapeRectanglesRequest } from '../../../native/linux/shapeRequests.js';
import { animationsEnabled } from './gtkAnimations.js';
import { renderLabel, type LabelImage } from './x11OverlayLabel.js';

/** The renderer overlay's accent (#ff7a1a), and the darker shade the frame pulses to. */
export const FRAME_ORANGE = { r: 0xff, g: 0x7a, b: 0x1a };
const FRAME_ORANGE_DIM = { r: 0xb8, g: 0x4a, b: 0x00 };
export const FRAME_WIDTH = 6;
/** Below the frame, centred: where each monitor's label sits. */
export const LABEL_TOP = 14;
const LABEL_MARGIN = 24;
/** The renderer's pulse period (1.4 s), drawn in this many steps. */
const PULSE_PERIOD_MS = 1_400;
const PULSE_STEPS = 10;

const INPUT_OUTPUT = 1;
const Z_PIXMAP = 2;
const SUBSTRUCTURE_NOTIFY = 0x80000;
const CONFIGURE_NOTIFY = 22;
const MAP_NOTIFY = 19;
const STACK_ABOVE = 0;

type Rgb = { r: number; g: number; b: number };

export interface X11OverlayOptions {
  /** Pulse the frame: forced on or off by a setting; undefined follows the desktop's reduced-motion setting. */
  pulse?: boolean;
  /** Where GTK's settings.ini files are looked for (HOME, XDG_CONFIG_HOME…). */
  env?: NodeJS.ProcessEnv;
}

/** How the screen's visual packs red, green and blue into a pixel (32 bits a pixel). */
interface PixelFormat {
  red: number;
  green: number;
  blue: number;
}

/** One monitor's windows: four frame strips and a label. */
interface MonitorWindows {
  monitor: Rect;
  strips: number[];
  label: number;
}

export class X11Overlay {
  private monitors: MonitorWindows[] = [];
  private shown = false;
  /** The text asked for last, and the text and pixels of the label drawn (they differ while it renders). */
  private labelText = '';
  private label: { text: string; image: LabelImage } | null = null;
  private labelPixmap = 0;
  /** _NET_WM_NAME and UTF8_STRING: each label window is named after its text, so what it says can be read (xprop) as well as seen. */
  private nameAtoms: { name: number; utf8: number } | null = null;
  private labelGc = 0;
  private labelRendering: Promise<void> = Promise.resolve();
  private pulseTimer: NodeJS.Timeout | undefined;
  private pulseStep = 0;
  private raising = false;
  private queue: Promise<void> = Promise.resolve();
  private readonly stopEvents: () => void;

  private constructor(
    private readonly connection: X11Connection,
    private readonly shapeOpcode: number | null,
    private readonly randrOpcode: number | null,
    private readonly format: PixelFormat | null,
    private readonly options: X11OverlayOptions,
  ) {
    // The window manager restacks its frames when it activates a window (the call does that
    // first thing): any map or restack of another top-level window puts ours back on top.
    connection.addRootEventMask(SUBSTRUCTURE_NOTIFY);
    this.stopEvents = connection.onEvent((event) => this.onEvent(event));
  }

  /** Finds the extensions, creates the (unmapped) windows and renders a first label, so showing is quick. */
  static async create(connection: X11Connection, options: X11OverlayOptions = {}): Promise<X11Overlay> {
    const [shapeOpcode, randrOpcode] = await Promise.all([shapeInputOpcode(connection), randr15Opcode(connection)]);
    if (shapeOpcode === null) console.error('[overlay] the X server has no SHAPE 1.1: the overlay would catch clicks, so it is not drawn.');
    const overlay = new X11Overlay(connection, shapeOpcode, randrOpcode, pixelFormat(connection), options);
    overlay.nameAtoms = { name: await connection.atom('_NET_WM_NAME'), utf8: await connection.atom('UTF8_STRING') };
    if (shapeOpcode !== null) {
      overlay.layOut(await overlay.readMonitors());
      // The first sharp render costs tens of milliseconds (fonts, libvips): paid here, not when
      // the guard engages.
      await renderLabel('Tandem', 400).catch((error: unknown) => console.error(`[overlay] label rendering unavailable: ${(error as Error).message}`));
    }
    await connection.sync();
    return overlay;
  }

  /** Shows the frame at once and the label as soon as its text is rendered; updates the label while shown. Never throws. */
  show(text: string): Promise<void> {
    return this.inOrder(async () => {
      if (this.shapeOpcode === null) return;
      if (!this.shown) {
        this.shown = true;
        // A monitor plugged in or rearranged since the last call: lay the windows out again.
        const monitors = await this.readMonitors();
        if (!sameRects(monitors, this.monitors.map((windows) => windows.monitor))) this.layOut(monitors);
        const { client } = this.connection;
        for (const windows of this.monitors) for (const strip of windows.strips) client.MapWindow(strip);
        // Last call's label only if it says the same: otherwise the new one maps once rendered.
        if (this.label?.text === text) for (const windows of this.monitors) client.MapWindow(windows.label);
        this.raiseAll();
        void this.startPulse();
      }
      if (text !== this.labelText) {
        this.labelText = text;
        this.labelRendering = this.labelRendering.then(() => this.drawLabel(text)).catch((error: unknown) => console.error(`[overlay] label: ${(error as Error).message}`));
      }
      await this.connection.sync();
    }, 'show');
  }

  /** Takes everything off the screen. Never throws. */
  hide(): Promise<void> {
    return this.inOrder(async () => {
      if (!this.shown) return;
      this.shown = false;
      this.stopPulse();
      const { client } = this.connection;
      for (const windows of this.monitors) for (const window of [...windows.strips, windows.label]) client.UnmapWindow(window);
      await this.connection.sync();
    }, 'hide');
  }

  /**
   * Shows and hides run one after the other, in the order asked: a release that comes while a
   * show still waits for the monitor list must not be overtaken by it (the overlay would stay up).
   */
  private inOrder(run: () => Promise<void>, what: string): Promise<void> {
    const next = this.queue.then(run).catch((error: unknown) => console.error(`[overlay] could not ${what}: ${(error as Error).message}`));
    this.queue = next;
    return next;
  }

  async close(): Promise<void> {
    await this.hide();
    this.stopEvents();
    if (this.connection.closed) return;
    try {
      this.destroyWindows();
      if (this.labelPixmap) this.connection.client.FreePixmap(this.labelPixmap);
      this.labelPixmap = 0;
      await this.connection.sync();
    } catch {
      // The connection is going away: the X server frees everything with it.
    }
  }

  // — windows —

  private layOut(monitors: Rect[]): void {
    this.destroyWindows();
    const { client } = this.connection;
    const root = this.connection.root;
    const orange = this.pixel(FRAME_ORANGE);
    this.monitors = monitors.map((monitor) => {
      const strips = stripRects(monitor).map((rect) => {
        const window = client.AllocID();
        client.CreateWindow(window, root, rect.x, rect.y, rect.width, rect.height, 0, 0, INPUT_OUTPUT, 0, { overrideRedirect: 1, backgroundPixel: orange });
        this.clickThrough(window);
        return window;
      });
      const label = client.AllocID();
      client.CreateWindow(label, root, monitor.x + LABEL_MARGIN, monitor.y + LABEL_TOP, 1, 1, 0, 0, INPUT_OUTPUT, 0, { overrideRedirect: 1, backgroundPixel: this.pixel({ r: 0x1c, g: 0x1c, b: 0x1e }) });
      this.clickThrough(label);
      return { monitor, strips, label };
    });
    if (!this.labelGc && this.monitors.length) {
      this.labelGc = client.AllocID();
      client.CreateGC(this.labelGc, root, {});
    }
    if (this.label) this.placeLabels(this.label.image);
  }

  private destroyWindows(): void {
    for (const windows of this.monitors) for (const window of [...windows.strips, windows.label]) this.connection.client.DestroyWindow(window);
    this.monitors = [];
  }

  /** An empty input region: the pointer sees straight through the window. */
  private clickThrough(window: number): void {
    this.connection.sendRaw(shapeRectanglesRequest({ majorOpcode: this.shapeOpcode!, window, kind: SHAPE_KIND.input, rectangles: [] }));
  }

  private raiseAll(): void {
    for (const windows of this.monitors) {
      for (const window of [...windows.strips, windows.label]) this.connection.client.ConfigureWindow(window, { stackMode: STACK_ABOVE });
    }
  }

  private onEvent(event: XEvent): void {
    const type = event.type & 0x7f;
    if (!this.shown || (type !== CONFIGURE_NOTIFY && type !== MAP_NOTIFY)) return;
    // The window that changed: ConfigureNotify names it second, MapNotify first.
    const fields = event as unknown as { wid?: number; wid1?: number };
    const changed = type === CONFIGURE_NOTIFY ? fields.wid1 : fields.wid;
    if (changed === undefined || this.owns(changed) || this.raising) return;
    // One raise per turn of the event loop, however many windows changed.
    this.raising = true;
    setImmediate(() => {
      this.raising = false;
      if (this.shown && !this.connection.closed) this.raiseAll();
    });
  }

  private owns(window: number): boolean {
    return this.monitors.some((windows) => windows.label === window || windows.strips.includes(window));
  }

  // — the label —

  private async drawLabel(text: string): Promise<void> {
    if (!this.format || !this.monitors.length) return;
    const narrowest = Math.min(...this.monitors.map((windows) => windows.monitor.width));
    const image = await renderLabel(text, narrowest - 2 * LABEL_MARGIN);
    if (text !== this.labelText || this.connection.closed) return; // a newer text is on its way
    const { client } = this.connection;
    const depth = this.connection.screen.root_depth;
    const pixmap = client.AllocID();
    client.CreatePixmap(pixmap, this.connection.root, depth, image.width, image.height);
    // Row bands, each request well under the 256 KiB a request may carry without BIG-REQUESTS.
    const rowsPerRequest = Math.max(1, Math.floor(200_000 / (image.width * 4)));
    const pixels = zPixmap(image, this.format);
    for (let top = 0; top < image.height; top += rowsPerRequest) {
      const rows = Math.min(rowsPerRequest, image.height - top);
      client.PutImage(Z_PIXMAP, pixmap, this.labelGc, image.width, rows, 0, top, 0, depth, pixels.subarray(top * image.width * 4, (top + rows) * image.width * 4));
    }
    const previous = this.labelPixmap;
    this.labelPixmap = pixmap;
    this.label = { text, image };
    this.placeLabels(image);
    // The windows keep the pixmap as their background; our name for the old one can go.
    if (previous) client.FreePixmap(previous);
    await this.connection.sync();
  }

  private placeLabels(image: LabelImage): void {
    const { client } = this.connection;
    const name = this.label && this.nameAtoms ? Buffer.from(this.label.text, 'utf8') : null;
    for (const { monitor, label } of this.monitors) {
      if (name && this.nameAtoms) client.ChangeProperty(0, label, this.nameAtoms.name, this.nameAtoms.utf8, 8, name);
      client.ConfigureWindow(label, { x: monitor.x + Math.round((monitor.width - image.width) / 2), y: monitor.y + LABEL_TOP, width: image.width, height: image.height });
      this.connection.sendRaw(shapeRectanglesRequest({ majorOpcode: this.shapeOpcode!, window: label, kind: SHAPE_KIND.bounding, rectangles: image.shape }));
      client.ChangeWindowAttributes(label, { backgroundPixmap: this.labelPixmap });
      client.ClearArea(label, 0, 0, 0, 0, 0);
      if (this.shown) {
        client.MapWindow(label);
        client.ConfigureWindow(label, { stackMode: STACK_ABOVE });
      }
    }
  }

  // — the pulse —

  private async startPulse(): Promise<void> {
    const pulse = this.options.pulse ?? (await animationsEnabled(this.connection, this.options.env));
    if (!pulse || !this.shown || this.pulseTimer) return;
    this.pulseStep = 0;
    this.pulseTimer = setInterval(() => this.pulse(), PULSE_PERIOD_MS / PULSE_STEPS);
    this.pulseTimer.unref();
  }

  private stopPulse(): void {
    clearInterval(this.pulseTimer);
    this.pulseTimer = undefined;
    if (this.pulseStep === 0 || this.connection.closed) return;
    // The next show starts from the full orange.
    this.pulseStep = 0;
    this.paintFrame(FRAME_ORANGE);
  }

  private pulse(): void {
    if (!this.shown || this.connection.closed) return;
    this.pulseStep = (this.pulseStep + 1) % PULSE_STEPS;
    // 0 → 1 → 0 over one period: full orange, dimmer, back.
    const phase = 1 - Math.abs(1 - (2 * this.pulseStep) / PULSE_STEPS);
    this.paintFrame(mix(FRAME_ORANGE, FRAME_ORANGE_DIM, phase));
  }

  private paintFrame(colour: Rgb): void {
    const pixel = this.pixel(colour);
    for (const windows of this.monitors) {
      for (const strip of windows.strips) {
        this.connection.client.ChangeWindowAttributes(strip, { backgroundPixel: pixel });
        this.connection.client.ClearArea(strip, 0, 0, 0, 0, 0);
      }
    }
  }

  private pixel(colour: Rgb): number {
    return this.format ? packPixel(this.format, colour) : (colour.r << 16) | (colour.g << 8) | colour.b;
  }

  // — monitors —

  /** Active monitors (RandR 1.5), else the whole screen. */
  private async readMonitors(): Promise<Rect[]> {
    return (await readMonitors(this.connection, this.randrOpcode)).map((display) => display.bounds);
  }
}

/** The four strips of one monitor's frame. */
export function stripRects(monitor: Rect): Rect[] {
  const { x, y, width, height } = monitor;
  const w = Math.min(FRAME_WIDTH, Math.floor(width / 2), Math.floor(height / 2));
  return [
    { x, y, width, height: w },
    { x, y: y + height - w, width, height: w },
    { x, y: y + w, width: w, height: height - 2 * w },
    { x: x + width - w, y: y + w, width: w, height: height - 2 * w },
  ];
}

function sameRects(a: Rect[], b: Rect[]): boolean {
  return a.length === b.length && a.every((rect, i) => rect.x === b[i].x && rect.y === b[i].y && rect.width === b[i].width && rect.height === b[i].height);
}

function mix(a: Rgb, b: Rgb, t: number): Rgb {
  const lerp = (from: number, to: number): number => Math.round(from + (to - from) * t);
  return { r: lerp(a.r, b.r), g: lerp(a.g, b.g), b: lerp(a.b, b.b) };
}

/** A colour packed for a TrueColor visual with these channel masks. */
export function packPixel(format: PixelFormat, { r, g, b }: Rgb): number {
  const channel = (value: number, mask: number): number => {
    if (!mask) return 0;
    const shift = 31 - Math.clz32(mask & -mask);
    const bits = 32 - Math.clz32(mask >>> shift);
    const scaled = bits >= 8 ? value << (bits - 8) : value >> (8 - bits);
    return (scaled << shift) >>> 0;
  };
  return (channel(r, format.red) | channel(g, format.green) | channel(b, format.blue)) >>> 0;
}

/** RGB pixels as a ZPixmap image for a 32-bits-a-pixel visual (little-endian, as PutImage sends them). */
export function zPixmap(image: { width: number; height: number; rgb: Buffer }, format: PixelFormat): Buffer {
  const out = Buffer.alloc(image.width * image.height * 4);
  for (let i = 0, o = 0; i < image.rgb.length; i += 3, o += 4) {
    out.writeUInt32LE(packPixel(format, { r: image.rgb[i], g: image.rgb[i + 1], b: image.rgb[i + 2] }), o);
  }
  return out;
}

/** The root visual's masks when it is a TrueColor visual of depth 24 or 32; null otherwise (no label then). */
function pixelFormat(connection: X11Connection): PixelFormat | null {
  const screen = connection.screen as typeof connection.screen & { depths?: Record<number, Record<number, { class: number; red_mask: number; green_mask: number; blue_mask: number }>> };
  const visual = screen.depths?.[screen.root_depth]?.[screen.root_visual];
  const TRUE_COLOR = 4;
  if (!visual || visual.class !== TRUE_COLOR || (screen.root_depth !== 24 && screen.root_depth !== 32)) {
    console.error(`[overlay] root visual of depth ${screen.root_depth} is not 24/32-bit TrueColor: the label is not drawn, only the frame.`);
    return null;
  }
  return { red: visual.red_mask, green: visual.green_mask, blue: visual.blue_mask };
}

/** The SHAPE major opcode when the server has input shapes (SHAPE ≥ 1.1), else null. */
function shapeInputOpcode(connection: X11Connection): Promise<number | null> {
  return extensionOpcode(connection, 'SHAPE', { major: 1, minor: 1 }, shapeQueryVersionRequest, parseShapeVersion);
}


