// The overlay the server itself draws on X11 while the guard holds the person's input: a
// pulsing orange frame around every monitor and a label saying what is happening and that Esc
// gives control back — the look of the app's renderer overlay (docs/screenshots/overlay.png),
// for `tandem mcp --direct` and `tandem serve`, where no renderer runs.
//
// Plain core-protocol windows on the server's own X connection: override-redirect (the window
// manager never manages, stacks under or focuses them), an empty input shape (SHAPE: every click
// goes through to what lies under them), solid colours (no compositor needed), and four thin
// strips per monitor rather than one full-screen window, so nothing covers the apps. They are
// the server's own resources: when the server dies (kill -9 included) the X server destroys
// them with its connection. Tandem's window screenshots (Composite, one window) never show them.

import sharp from 'sharp';
import type { XCallback } from 'x11';
import type { Rect } from '../../core/model.js';
import type { X11Connection } from '../../../native/linux/x11Connection.js';

/** The accent colour of the renderer overlay (#ff7a1a), and a darker shade the frame pulses to. */
const ORANGE = { r: 0xff, g: 0x7a, b: 0x1a };
const ORANGE_DIM = { r: 0xb8, g: 0x4a, b: 0x00 };
const FRAME_WIDTH = 6;
/** The renderer's pulse period (1.4 s), in steps. */
const PULSE_PERIOD_MS = 1_400;
const PULSE_STEPS = 10;
const LABEL_HEIGHT = 40;
const LABEL_TOP = 14;
const LABEL_FONT_PX = 16;

type Monitor = Rect;

export interface OverlayOptions {
  /** Animate the frame (off: reduced motion asked for, or the person turned it off). */
  pulse: boolean;
}

/** InputOutput window class, CopyFromParent visual/depth. */
const INPUT_OUTPUT = 1;
const SUBSTRUCTURE_NOTIFY = 0x80000;
const CONFIGURE_NOTIFY = 22;
const MAP_NOTIFY = 19;

export class X11Overlay {
  private readonly strips: number[] = [];
  private label = 0;
  private labelPixmap = 0;
  private labelGc = 0;
  private labelText = '';
  private labelRendering: Promise<void> = Promise.resolve();
  private shown = false;
  private pulseTimer: NodeJS.Timeout | undefined;
  private pulseStep = 0;
  private raising = false;

  private constructor(
    private readonly connection: X11Connection,
    private readonly monitors: Monitor[],
    private readonly shape: ShapeExtension | null,
    private readonly options: OverlayOptions,
  ) {}

  /** Creates the (unmapped) windows once, so showing them later is a map request away. */
  static async create(connection: X11Connection, options: OverlayOptions): Promise<X11Overlay> {
    const [monitors, shape] = await Promise.all([readMonitors(connection), connection.request<ShapeExtension>((callback) => connection.client.require('shape' as 'xtest', callback as never)).catch(() => null)]);
    const overlay = new X11Overlay(connection, monitors, shape, options);
    overlay.createWindows();
    // The window manager restacks its frames when it activates a window (the call does that
    // first thing): any restack of the root's children puts the overlay back on top.
    connection.addRootEventMask(SUBSTRUCTURE_NOTIFY);
    connection.onEvent((event) => {
      const type = event.type & 0x7f;
      const fields = event as unknown as { wid?: number; wid1?: number };
      // The window that changed: ConfigureNotify names it second, MapNotify first.
      const changed = type === CONFIGURE_NOTIFY ? fields.wid1 : type === MAP_NOTIFY ? fields.wid : undefined;
      if (changed !== undefined) overlay.onRestack(changed);
    });
    await connection.sync();
    return overlay;
  }

  /** The strips' and label's rectangles, for tests of where the frame is. */
  get frameRects(): Rect[] {
    return this.monitors.flatMap(stripRects);
  }

  /** Shows the frame at once and the label as soon as its text is rendered. Never throws. */
  async show(text: string): Promise<void> {
    try {
      const wasShown = this.shown;
      this.shown = true;
      if (!wasShown) {
        for (const strip of this.strips) this.connection.client.MapWindow(strip);
        for (const strip of this.strips) this.raise(strip);
        this.startPulse();
      }
      if (text !== this.labelText) {
        this.labelText = text;
        this.labelRendering = this.labelRendering.then(() => this.renderLabel(text)).catch((error: unknown) => console.error(`[overlay] label: ${(error as Error).message}`));
      }
      await this.connection.sync();
    } catch (error) {
      console.error(`[overlay] could not show: ${(error as Error).message}`);
    }
  }

  /** Takes everything off the screen. Never throws. */
  async hide(): Promise<void> {
    if (!this.shown) return;
    this.shown = false;
    clearInterval(this.pulseTimer);
    this.pulseTimer = undefined;
    try {
      for (const window of [...this.strips, this.label]) this.connection.client.UnmapWindow(window);
      await this.connection.sync();
    } catch (error) {
      console.error(`[overlay] could not hide: ${(error as Error).message}`);
    }
  }

  async close(): Promise<void> {
    await this.hide();
  }

  // — windows —

  private createWindows(): void {
    const { client } = this.connection;
    const root = this.connection.root;
    for (const rect of this.monitors.flatMap(stripRects)) {
      const window = client.AllocID();
      client.CreateWindow(window, root, rect.x, rect.y, rect.width, rect.height, 0, 0, INPUT_OUTPUT, 0, { overrideRedirect: 1, backgroundPixel: pixel(ORANGE) });
      this.clickThrough(window);
      this.strips.push(window);
    }
    this.label = client.AllocID();
    const primary = this.monitors[0];
    client.CreateWindow(this.label, root, primary.x + Math.round(primary.width / 2) - 100, primary.y + LABEL_TOP, 200, LABEL_HEIGHT, 0, 0, INPUT_OUTPUT, 0, { overrideRedirect: 1, backgroundPixel: pixel({ r: 0x1c, g: 0x1c, b: 0x1e }) });
    this.clickThrough(this.label);
    this.labelGc = client.AllocID();
    client.CreateGC(this.labelGc, this.label, {});
  }

  /** An empty input region: the pointer sees straight through the window. */
  private clickThrough(window: number): void {
    this.shape?.Rectangles(this.shape.Op.Set, this.shape.Kind.Input, window, 0, 0, []);
  }

  private raise(window: number): void {
    this.connection.client.ConfigureWindow(window, { stackMode: 0 });
  }

  /** Another window mapped or restacked while shown: ours go back on top (ours moving never counts). */
  private onRestack(window: number): void {
    if (!this.shown || this.raising || window === this.label || this.strips.includes(window)) return;
    // One raise per turn of the event loop, however many windows changed.
    this.raising = true;
    setImmediate(() => {
      this.raising = false;
      if (!this.shown || this.connection.closed) return;
      for (const window of [...this.strips, this.label]) this.raise(window);
    });
  }

  /** The label as an image: a dark pill with the orange dot and the text, the renderer's look. */
  private async renderLabel(text: string): Promise<void> {
    const width = Math.min(this.monitors[0].width - 40, Math.ceil(text.length * LABEL_FONT_PX * 0.56) + 64);
    const svg =
      `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${LABEL_HEIGHT}">` +
      `<rect width="${width}" height="${LABEL_HEIGHT}" rx="${LABEL_HEIGHT / 2}" fill="#1c1c1e"/>` +
      `<circle cx="24" cy="${LABEL_HEIGHT / 2}" r="6" fill="#ff7a1a"/>` +
      `<text x="40" y="${LABEL_HEIGHT / 2 + LABEL_FONT_PX * 0.35}" font-family="DejaVu Sans, sans-serif" font-size="${LABEL_FONT_PX}" fill="#ffffff">${escapeXml(text)}</text>` +
      `</svg>`;
    const { data, info } = await sharp(Buffer.from(svg)).flatten({ background: '#1c1c1e' }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    if (text !== this.labelText) return; // a newer text is on its way
    const bgrx = Buffer.alloc(info.width * info.height * 4);
    for (let i = 0; i < info.width * info.height; i++) {
      bgrx[i * 4] = data[i * 4 + 2];
      bgrx[i * 4 + 1] = data[i * 4 + 1];
      bgrx[i * 4 + 2] = data[i * 4];
    }
    const { client } = this.connection;
    if (this.labelPixmap) client.FreePixmap(this.labelPixmap);
    this.labelPixmap = client.AllocID();
    client.CreatePixmap(this.labelPixmap, this.label, this.connection.screen.root_depth, info.width, info.height);
    client.PutImage(2, this.labelPixmap, this.labelGc, info.width, info.height, 0, 0, 0, this.connection.screen.root_depth, bgrx);
    const primary = this.monitors[0];
    client.ConfigureWindow(this.label, { x: primary.x + Math.round((primary.width - info.width) / 2), y: primary.y + LABEL_TOP, width: info.width, height: info.height });
    client.ChangeWindowAttributes(this.label, { backgroundPixmap: this.labelPixmap });
    client.ClearArea(this.label, 0, 0, 0, 0, 0);
    if (this.shown) {
      client.MapWindow(this.label);
      this.raise(this.label);
    }
    await this.connection.sync();
  }

  // — the pulse —

  private startPulse(): void {
    if (!this.options.pulse) return;
    this.pulseStep = 0;
    this.pulseTimer = setInterval(() => this.pulse(), PULSE_PERIOD_MS / PULSE_STEPS);
    this.pulseTimer.unref();
  }

  private pulse(): void {
    if (!this.shown || this.connection.closed) return;
    this.pulseStep = (this.pulseStep + 1) % PULSE_STEPS;
    // 0 → 1 → 0 over one period: full orange, dimmer, back.
    const phase = 1 - Math.abs(1 - (2 * this.pulseStep) / PULSE_STEPS);
    const colour = pixel(mix(ORANGE, ORANGE_DIM, phase));
    for (const strip of this.strips) {
      this.connection.client.ChangeWindowAttributes(strip, { backgroundPixel: colour });
      this.connection.client.ClearArea(strip, 0, 0, 0, 0, 0);
    }
  }
}

interface ShapeExtension {
  Op: { Set: number };
  Kind: { Input: number };
  Rectangles(op: number, kind: number, window: number, x: number, y: number, rectangles: number[][]): void;
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

/** A TrueColor pixel of the usual 24-bit visual (red in the high byte). */
function pixel({ r, g, b }: { r: number; g: number; b: number }): number {
  return (r << 16) | (g << 8) | b;
}

function mix(a: { r: number; g: number; b: number }, b: { r: number; g: number; b: number }, t: number): { r: number; g: number; b: number } {
  const lerp = (from: number, to: number): number => Math.round(from + (to - from) * t);
  return { r: lerp(a.r, b.r), g: lerp(a.g, b.g), b: lerp(a.b, b.b) };
}

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** Active monitors from RandR (one rectangle per lit CRTC), else the whole root window. */
async function readMonitors(connection: X11Connection): Promise<Monitor[]> {
  const whole = [{ x: 0, y: 0, width: connection.screen.pixel_width, height: connection.screen.pixel_height }];
  try {
    const randr = await connection.request<RandrExtension>((callback) => connection.client.require('randr' as 'xtest', callback as never));
    const resources = await connection.request<{ crtcs: number[]; config_timestamp: number }>((callback) => randr.GetScreenResourcesCurrent(connection.root, callback));
    const crtcs = await Promise.all(resources.crtcs.map((crtc) => connection.request<Rect>((callback) => randr.GetCrtcInfo(crtc, resources.config_timestamp, callback))));
    const lit = crtcs.filter((crtc) => crtc.width > 0 && crtc.height > 0).map(({ x, y, width, height }) => ({ x, y, width, height }));
    return lit.length ? lit : whole;
  } catch {
    return whole;
  }
}

interface RandrExtension {
  GetScreenResourcesCurrent(window: number, callback: XCallback<{ crtcs: number[]; config_timestamp: number }>): void;
  GetCrtcInfo(crtc: number, timestamp: number, callback: XCallback<Rect>): void;
}

