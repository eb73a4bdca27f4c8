// Screenshots: the whole screen from the root window, a window from its Composite pixmap.
// Reading a window through the root (or the window itself) gives black where other windows
// cover it; with subwindows redirected, the server keeps every window's full contents in an
// offscreen pixmap that NameWindowPixmap lets us read.

import type { CompositeExtension } from 'x11';
import { TandemError } from '../../core/errors.js';
import type { Rect, Screenshot } from '../../core/model.js';
import { sleep, throwIfAborted, type Progress } from '../../core/progress.js';
import type { X11Connection } from '../../../native/linux/x11Connection.js';
import type { X11Windows } from './x11Windows.js';

const Z_PIXMAP = 2;
const ALL_PLANES = 0xffffffff;
/**
 * When redirection starts, the server seeds each window's pixmap from the screen, covered parts
 * included (showing whatever covered them), and asks the apps to repaint those parts: give them
 * this long before the first capture.
 */
const REPAINT_AFTER_REDIRECT_MS = 150;

export class X11Capture {
  private redirectedAt = 0;

  constructor(
    private readonly connection: X11Connection,
    private readonly windows: X11Windows,
    private readonly composite: CompositeExtension | null,
  ) {
    // Started at once so that apps have long repainted by the time anyone asks for a capture.
    if (composite) this.redirectOnce(composite);
  }

  async screen(rect: Rect | undefined, progress: Progress): Promise<Screenshot> {
    throwIfAborted(progress);
    const { pixel_width: screenWidth, pixel_height: screenHeight } = this.connection.screen;
    const area = clip(rect ?? { x: 0, y: 0, width: screenWidth, height: screenHeight }, screenWidth, screenHeight);
    if (!area) throw new TandemError('bad-input', `The rectangle lies outside the ${screenWidth}x${screenHeight} screen.`);
    const image = await this.image(this.connection.root, area.x, area.y, area.width, area.height);
    // 32 bits per pixel, rows padded to 32 bits: no padding at all. Core reorders the bytes
    // while it encodes, off the answer's path.
    return { raw: { data: image, width: area.width, height: area.height, order: 'bgrx' }, bounds: area, scale: 1 };
  }

  async window(windowId: number, progress: Progress): Promise<Screenshot> {
    throwIfAborted(progress);
    if (!this.composite) {
      throw new TandemError('unsupported', 'The X server has no Composite extension, so a window cannot be captured on its own.', { reason: 'no-composite' });
    }
    this.redirectOnce(this.composite);
    const sinceRedirect = Date.now() - this.redirectedAt;
    if (sinceRedirect < REPAINT_AFTER_REDIRECT_MS) await sleep(REPAINT_AFTER_REDIRECT_MS - sinceRedirect, progress);
    let frame: number;
    let geometry: { width: number; height: number; borderWidth?: number };
    let origin: { x: number; y: number };
    try {
      frame = await this.windows.frameOf(windowId);
      [geometry, origin] = await Promise.all([this.windows.geometry(frame), this.windows.rootPosition(frame)]);
    } catch {
      throw new TandemError('not-found', `Window ${windowId} does not exist any more.`, { reason: 'no-window' });
    }
    const pixmap = this.connection.client.AllocID();
    try {
      this.composite.NameWindowPixmap(frame, pixmap);
      const border = geometry.borderWidth ?? 0;
      const image = await this.image(pixmap, border, border, geometry.width, geometry.height);
      const bounds = { x: origin.x, y: origin.y, width: geometry.width, height: geometry.height };
      return { raw: { data: image, width: geometry.width, height: geometry.height, order: 'bgrx' }, bounds, scale: 1 };
    } catch (error) {
      if (error instanceof TandemError) throw error;
      throw new TandemError('unsupported', `Window ${windowId} cannot be captured (it is probably minimized or not mapped): ${(error as Error).message}`, { reason: 'window-off-screen' });
    } finally {
      this.connection.client.FreePixmap(pixmap);
    }
  }

  private image(drawable: number, x: number, y: number, width: number, height: number): Promise<Buffer> {
    return this.connection
      .request<{ data: Buffer }>((callback) => this.connection.client.GetImage(Z_PIXMAP, drawable, x, y, width, height, ALL_PLANES, callback))
      .then((reply) => reply.data);
  }

  /**
   * Automatic redirection of the root's children, once per connection: the server keeps drawing
   * them on screen itself (nothing changes for the person) and lasts until this client closes.
   * Never undone by hand: the package's UnredirectSubwindows request is malformed.
   */
  private redirectOnce(composite: CompositeExtension): void {
    if (this.redirectedAt) return;
    composite.RedirectSubwindows(this.connection.root, composite.Redirect.Automatic);
    this.redirectedAt = Date.now();
  }
}

function clip(rect: Rect, screenWidth: number, screenHeight: number): Rect | null {
  const x = Math.max(0, Math.floor(rect.x));
  const y = Math.max(0, Math.floor(rect.y));
  const right = Math.min(screenWidth, Math.ceil(rect.x + rect.width));
  const bottom = Math.min(screenHeight, Math.ceil(rect.y + rect.height));
  if (right <= x || bottom <= y) return null;
  return { x, y, width: right - x, height: bottom - y };
}
