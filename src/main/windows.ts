// Renderer windows: how a view is loaded (one built page, the view picked by a query parameter),
// the secure webPreferences every window shares, and the registry of windows we own — the IPC
// router answers only their main frames.

import type { BrowserWindowConstructorOptions, ElectronApi, IpcMainInvokeEventLike, WindowLike } from './electronApi.js';

export type ViewName = 'overlay' | 'onboarding' | 'feed';

export class OwnedWindows {
  private readonly windows = new Set<WindowLike>();

  add(window: WindowLike): void {
    this.windows.add(window);
    window.on('closed', () => this.windows.delete(window));
  }

  all(): WindowLike[] {
    return [...this.windows].filter((window) => !window.isDestroyed());
  }

  /** True only for the main frame of a window we created (not an iframe, not a stranger). */
  isOwnMainFrame(event: IpcMainInvokeEventLike): boolean {
    return this.all().some((window) => window.webContents.id === event.sender.id && window.webContents.mainFrame === event.senderFrame);
  }
}

export interface RendererPage {
  webPreferences: NonNullable<BrowserWindowConstructorOptions['webPreferences']>;
  load(window: WindowLike, view: ViewName): Promise<void>;
}

export function rendererPage(paths: { preload: string; html: string }, owned: OwnedWindows): RendererPage {
  return {
    webPreferences: {
      preload: paths.preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: false,
    },
    async load(window, view) {
      owned.add(window);
      // Our pages never open or navigate anywhere else.
      window.webContents.setWindowOpenHandler(() => ({ action: 'deny' }));
      window.webContents.on('will-navigate', (event) => event.preventDefault());
      await window.loadFile(paths.html, { query: { view } });
    },
  };
}

/** The feed and onboarding windows: one of each, reused and brought forward when asked again. */
export class AppWindows {
  private readonly open = new Map<ViewName, WindowLike>();

  constructor(
    private readonly electron: ElectronApi,
    private readonly page: RendererPage,
    private readonly log: (message: string) => void,
  ) {}

  show(view: Exclude<ViewName, 'overlay'>): WindowLike {
    const existing = this.open.get(view);
    if (existing && !existing.isDestroyed()) {
      existing.show();
      existing.focus();
      return existing;
    }
    const window = new this.electron.BrowserWindow({
      width: view === 'feed' ? 760 : 640,
      height: view === 'feed' ? 820 : 600,
      minWidth: 480,
      minHeight: 420,
      title: view === 'feed' ? 'Tandem — Live feed' : 'Tandem — Set up',
      show: true,
      autoHideMenuBar: true,
      webPreferences: this.page.webPreferences,
    });
    window.on('closed', () => this.open.delete(view));
    this.open.set(view, window);
    this.page.load(window, view).catch((error: Error) => this.log(`${view}: load failed: ${error.message}`));
    return window;
  }

  close(view: Exclude<ViewName, 'overlay'>): void {
    const window = this.open.get(view);
    if (window && !window.isDestroyed()) window.close();
  }

  /** Sends an event to every open app window (not the overlay). */
  broadcast(channel: string, payload: unknown): void {
    for (const window of this.open.values()) if (!window.isDestroyed()) window.webContents.send(channel, payload);
  }
}
