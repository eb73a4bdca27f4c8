// The "AI is acting" overlay: one full-screen, click-through, always-on-top, transparent window
// per display, shown exactly while the engine's input guard is engaged. Two rules shape it:
// an overlay never outlives its guard (it also hides after the call finishes, whatever events
// were missed, once the longest grace period the guard may outlive the answer by has passed),
// and the guard never depends on the overlay (every failure here is logged and swallowed — the
// engine's transaction does not wait for us).

import type { TandemEngine } from '../core/engineApi.js';
import { MAX_GRACE_MS } from '../core/guard.js';
import { confirmQuestionText, overlayText } from '../core/overlay/overlayText.js';
import type { ElectronApi, WindowLike } from './electronApi.js';
import type { OverlayState } from '../shared/types.js';
import type { RendererPage } from './windows.js';

export interface OverlayOptions {
  electron: ElectronApi;
  page: RendererPage;
  log: (message: string) => void;
  platform?: NodeJS.Platform;
}

/**
 * After call-finished, how long the overlay waits for the guard's own release: the guard may
 * outlive the answer by a late-Esc grace period (200 ms by default, MAX_GRACE_MS at most).
 */
export const RELEASE_FALLBACK_MS = MAX_GRACE_MS + 1_000;

export class OverlayController {
  private windows: WindowLike[] = [];
  private engagedCall: { callId: number; label: string; app: string; verb: string; asking?: boolean } | null = null;
  private readonly unsubscribe: Array<() => void> = [];

  constructor(private readonly options: OverlayOptions) {}

  /** Follows the engine's guard; call once. */
  attach(engine: TandemEngine): void {
    this.unsubscribe.push(
      engine.on('guard-engaged', (event) => this.engaged(event.callId, event.label, event.app, event.verb)),
      // Each step says what is being done now ("typing" after "clicking"), as the X11 overlay does.
      engine.on('step', (event) => this.stepped(event.callId, event.verb)),
      // A confirm_before press: the overlay asks, and says again what is done once the person allowed it.
      engine.on('confirm-asked', (event) => this.relabel(event.callId, confirmQuestionText(event.element, event.app), true)),
      engine.on('confirm-answered', (event) => {
        if (event.allowed && this.engagedCall?.callId === event.callId) this.relabel(event.callId, overlayText(this.engagedCall.verb, this.engagedCall.app), false);
      }),
      engine.on('guard-released', (event) => this.released(event.callId)),
      engine.on('call-finished', (event) => {
        setTimeout(() => this.released(event.callId), RELEASE_FALLBACK_MS).unref?.();
      }),
    );
    this.options.electron.screen.on('display-added', () => this.rebuild());
    this.options.electron.screen.on('display-removed', () => this.rebuild());
    // A resolution or scale change keeps the windows: moving them does not flash the overlay.
    this.options.electron.screen.on('display-metrics-changed', () => this.fitToDisplays());
  }

  get visible(): boolean {
    return this.engagedCall !== null;
  }

  get windowCount(): number {
    return this.windows.filter((window) => !window.isDestroyed()).length;
  }

  /** Windows are made ahead of time so showing is instant when a guard engages. */
  prepare(): void {
    this.safely('prepare', () => this.ensureWindows());
  }

  dispose(): void {
    for (const stop of this.unsubscribe.splice(0)) stop();
    this.engagedCall = null;
    this.destroyWindows();
  }

  private engaged(callId: number, label: string, app: string, verb: string): void {
    this.engagedCall = { callId, label, app, verb };
    this.safely('show', () => {
      this.ensureWindows();
      this.broadcast();
      for (const window of this.windows) window.showInactive();
    });
  }

  private stepped(callId: number, verb: string): void {
    if (this.engagedCall?.callId !== callId) return;
    this.engagedCall = { ...this.engagedCall, verb };
    this.relabel(callId, overlayText(verb, this.engagedCall.app), false);
  }

  private relabel(callId: number, label: string, asking: boolean): void {
    if (this.engagedCall?.callId !== callId) return;
    if (label === this.engagedCall.label && asking === Boolean(this.engagedCall.asking)) return;
    this.engagedCall = { ...this.engagedCall, label, asking };
    this.safely('update', () => this.broadcast());
  }

  private released(callId: number): void {
    if (!this.engagedCall || this.engagedCall.callId !== callId) return;
    this.engagedCall = null;
    this.safely('hide', () => {
      for (const window of this.windows) if (!window.isDestroyed()) window.hide();
      this.broadcast();
    });
  }

  private state(): OverlayState {
    return { visible: this.engagedCall !== null, label: this.engagedCall?.label ?? '', ...(this.engagedCall?.asking ? { asking: true } : {}) };
  }

  private broadcast(): void {
    for (const window of this.windows) if (!window.isDestroyed()) window.webContents.send('overlay:state', this.state());
  }

  private ensureWindows(): void {
    this.windows = this.windows.filter((window) => !window.isDestroyed());
    if (this.windows.length) return;
    const { BrowserWindow, screen } = this.options.electron;
    for (const display of screen.getAllDisplays()) {
      const window = new BrowserWindow({
        ...display.bounds,
        show: false,
        frame: false,
        transparent: true,
        backgroundColor: '#00000000',
        hasShadow: false,
        resizable: false,
        movable: false,
        focusable: false,
        skipTaskbar: true,
        fullscreenable: false,
        alwaysOnTop: true,
        // macOS pushes frameless windows below the menu bar and rounds their corners unless told.
        enableLargerThanScreen: true,
        roundedCorners: false,
        webPreferences: this.options.page.webPreferences,
      });
      window.setIgnoreMouseEvents(true);
      window.setAlwaysOnTop(true, 'screen-saver');
      // skipTransformProcessType: a menu-bar app must not turn into a Dock app to do this.
      window.setVisibleOnAllWorkspaces(true, { visibleOnFullScreen: true, skipTransformProcessType: true });
      // Kept out of screenshots: the agent's own captures must show the app, not our tint.
      window.setContentProtection(true);
      window.setBounds(display.bounds);
      // A page that finishes loading after the guard engaged still learns the current state.
      window.webContents.once('did-finish-load', () => this.safely('sync', () => window.webContents.send('overlay:state', this.state())));
      this.options.page.load(window, 'overlay').catch((error: Error) => this.options.log(`overlay: load failed: ${error.message}`));
      this.windows.push(window);
    }
  }

  private destroyWindows(): void {
    for (const window of this.windows) if (!window.isDestroyed()) window.destroy();
    this.windows = [];
  }

  /** Each window to its display's new bounds; a display count change rebuilds instead. */
  private fitToDisplays(): void {
    this.safely('fit', () => {
      const displays = this.options.electron.screen.getAllDisplays();
      this.windows = this.windows.filter((window) => !window.isDestroyed());
      if (displays.length !== this.windows.length) {
        this.rebuild();
        return;
      }
      displays.forEach((display, index) => this.windows[index].setBounds(display.bounds));
    });
  }

  private rebuild(): void {
    this.safely('rebuild', () => {
      this.destroyWindows();
      this.ensureWindows();
      if (this.engagedCall) {
        this.broadcast();
        for (const window of this.windows) window.showInactive();
      }
    });
  }

  private safely(what: string, run: () => void): void {
    try {
      run();
    } catch (error) {
      this.options.log(`overlay: ${what} failed: ${(error as Error).message}`);
    }
  }
}
