// The slice of Electron the app uses, as a structural interface. Only main.ts imports the real
// 'electron' module and hands it to startTandemApp(); every other main module receives this
// object, so the tests drive them with a fake (test/app/support/fakeElectron.ts) — the Electron
// binary cannot run on our build machines.

import type { BrowserWindowConstructorOptions, Menu, MenuItemConstructorOptions, NativeImage } from 'electron';

export type { BrowserWindowConstructorOptions, MenuItemConstructorOptions };

export interface WebContentsLike {
  readonly id: number;
  readonly mainFrame: unknown;
  send(channel: string, payload: unknown): void;
  once(event: 'did-finish-load', listener: () => void): unknown;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
  on(event: 'will-navigate', listener: (event: { preventDefault(): void }, url: string) => void): unknown;
}

export interface WindowLike {
  readonly webContents: WebContentsLike;
  loadFile(path: string, options?: { query?: Record<string, string> }): Promise<void>;
  show(): void;
  showInactive(): void;
  hide(): void;
  focus(): void;
  close(): void;
  destroy(): void;
  isDestroyed(): boolean;
  isVisible(): boolean;
  setBounds(bounds: { x: number; y: number; width: number; height: number }): void;
  setIgnoreMouseEvents(ignore: boolean, options?: { forward?: boolean }): void;
  setAlwaysOnTop(flag: boolean, level?: 'screen-saver'): void;
  setVisibleOnAllWorkspaces(visible: boolean, options?: { visibleOnFullScreen?: boolean; skipTransformProcessType?: boolean }): void;
  setContentProtection(enable: boolean): void;
  on(event: 'closed', listener: () => void): unknown;
}

export interface TrayLike {
  setContextMenu(menu: Menu | null): void;
  setToolTip(text: string): void;
  destroy(): void;
}

export interface DisplayLike {
  id: number;
  bounds: { x: number; y: number; width: number; height: number };
}

export interface IpcMainInvokeEventLike {
  readonly sender: { readonly id: number };
  readonly senderFrame: unknown;
}

export interface ElectronApi {
  app: {
    requestSingleInstanceLock(): boolean;
    quit(): void;
    exit(code?: number): void;
    /** Starts the app again once this instance has quit (it does not quit by itself). */
    relaunch(options?: { args?: string[] }): void;
    whenReady(): Promise<void>;
    on(event: 'second-instance' | 'window-all-closed', listener: () => void): unknown;
    on(event: 'before-quit', listener: (event: { preventDefault(): void }) => void): unknown;
    getVersion(): string;
    getPath(name: 'userData'): string;
    readonly isPackaged: boolean;
    readonly commandLine: { appendSwitch(name: string, value?: string): void };
    dock?: { hide(): void };
    /** macOS only (absent elsewhere). */
    isInApplicationsFolder?(): boolean;
    /** macOS only: true when moved (Electron then relaunches from /Applications); throws when the copy fails. */
    moveToApplicationsFolder?(): boolean;
    /** Makes the app active; `steal` (macOS) takes the focus even when another app has it. */
    focus(options?: { steal: boolean }): void;
  };
  BrowserWindow: new (options: BrowserWindowConstructorOptions) => WindowLike;
  Tray: new (image: NativeImage | string) => TrayLike;
  Menu: { buildFromTemplate(template: MenuItemConstructorOptions[]): Menu };
  ipcMain: {
    handle(channel: string, listener: (event: IpcMainInvokeEventLike, ...args: unknown[]) => unknown): void;
    removeHandler(channel: string): void;
  };
  screen: {
    getAllDisplays(): DisplayLike[];
    on(event: 'display-added' | 'display-removed' | 'display-metrics-changed', listener: () => void): unknown;
  };
  shell: {
    openPath(path: string): Promise<string>;
    showItemInFolder(path: string): void;
    openExternal(url: string): Promise<void>;
  };
  clipboard: { writeText(text: string): void };
  dialog: {
    showErrorBox(title: string, content: string): void;
    /** The index of the button pressed. */
    showMessageBoxSync(options: { type: 'question' | 'info'; buttons: string[]; defaultId: number; cancelId: number; message: string; detail: string }): number;
  };
  nativeImage: { createFromPath(path: string): NativeImage };
  systemPreferences: {
    isTrustedAccessibilityClient(prompt: boolean): boolean;
    getMediaAccessStatus(mediaType: 'screen'): string;
  };
}
