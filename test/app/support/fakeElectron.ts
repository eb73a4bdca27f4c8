// A fake of the Electron API slice the app uses (src/main/electronApi.ts). The Electron binary
// cannot run on our build machines, so main's modules are driven through this: it records what
// the app asked of each window, tray and menu, and lets a test click menu items, send IPC from a
// chosen frame and add displays.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Menu, NativeImage } from 'electron';
import type {
  BrowserWindowConstructorOptions,
  DisplayLike,
  ElectronApi,
  IpcMainInvokeEventLike,
  MenuItemConstructorOptions,
  TrayLike,
  WebContentsLike,
  WindowLike,
} from '../../../src/main/electronApi.js';

let nextId = 1;

export class FakeWebContents implements WebContentsLike {
  readonly id = nextId++;
  readonly mainFrame = { name: `main-frame-${this.id}` };
  readonly sent: Array<{ channel: string; payload: unknown }> = [];
  /** Where sent messages also go (a test can forward them into a real page). */
  forward?: (channel: string, payload: unknown) => void;
  private finishLoad: Array<() => void> = [];
  send(channel: string, payload: unknown): void {
    this.sent.push({ channel, payload });
    this.forward?.(channel, payload);
  }
  once(_event: 'did-finish-load', listener: () => void): this {
    this.finishLoad.push(listener);
    return this;
  }
  setWindowOpenHandler(): void {}
  on(): this {
    return this;
  }
  /** The page finished loading (the fake never loads anything by itself). */
  finishLoading(): void {
    for (const listener of this.finishLoad.splice(0)) listener();
  }
  last(channel: string): unknown {
    return this.sent.filter((message) => message.channel === channel).at(-1)?.payload;
  }
}

export class FakeBrowserWindow implements WindowLike {
  static all: FakeBrowserWindow[] = [];
  /** Makes matching constructions throw (overlay failures must not break actions). */
  static failWhen: ((options: BrowserWindowConstructorOptions) => boolean) | undefined;
  readonly webContents = new FakeWebContents();
  visible: boolean;
  destroyed = false;
  ignoreMouseEvents = false;
  alwaysOnTopLevel: string | undefined;
  allWorkspaces = false;
  allWorkspacesOptions: { visibleOnFullScreen?: boolean; skipTransformProcessType?: boolean } | undefined;
  contentProtection = false;
  bounds: { x: number; y: number; width: number; height: number } | undefined;
  loaded: { path: string; query?: Record<string, string> } | undefined;
  private closedListeners: Array<() => void> = [];

  constructor(readonly options: BrowserWindowConstructorOptions) {
    if (FakeBrowserWindow.failWhen?.(options)) throw new Error('fake: window creation failed');
    this.visible = options.show !== false;
    FakeBrowserWindow.all.push(this);
  }
  async loadFile(path: string, options?: { query?: Record<string, string> }): Promise<void> {
    this.loaded = { path, query: options?.query };
  }
  /** show() or focus() was called: Electron gives the window the focus then (showInactive does not). */
  focusAsked = false;
  show(): void {
    this.visible = true;
    this.focusAsked = true;
  }
  showInactive(): void {
    this.visible = true;
  }
  hide(): void {
    this.visible = false;
  }
  focus(): void {
    this.focusAsked = true;
  }
  close(): void {
    this.destroy();
  }
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.visible = false;
    for (const listener of this.closedListeners.splice(0)) listener();
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  isVisible(): boolean {
    return this.visible;
  }
  setBounds(bounds: { x: number; y: number; width: number; height: number }): void {
    this.bounds = bounds;
  }
  setIgnoreMouseEvents(ignore: boolean): void {
    this.ignoreMouseEvents = ignore;
  }
  setAlwaysOnTop(flag: boolean, level?: 'screen-saver'): void {
    this.alwaysOnTopLevel = flag ? (level ?? 'floating') : undefined;
  }
  setVisibleOnAllWorkspaces(visible: boolean, options?: { visibleOnFullScreen?: boolean; skipTransformProcessType?: boolean }): void {
    this.allWorkspaces = visible;
    this.allWorkspacesOptions = options;
  }
  setContentProtection(enable: boolean): void {
    this.contentProtection = enable;
  }
  on(_event: 'closed', listener: () => void): this {
    this.closedListeners.push(listener);
    return this;
  }
}

export class FakeTray implements TrayLike {
  menu: MenuItemConstructorOptions[] = [];
  toolTip = '';
  destroyed = false;
  constructor(readonly image: unknown) {}
  setContextMenu(menu: Menu | null): void {
    this.menu = (menu as unknown as { template: MenuItemConstructorOptions[] } | null)?.template ?? [];
  }
  setToolTip(text: string): void {
    this.toolTip = text;
  }
  destroy(): void {
    this.destroyed = true;
  }
  /** Finds a menu item by id, looking into submenus. */
  item(id: string, items: MenuItemConstructorOptions[] = this.menu): MenuItemConstructorOptions | undefined {
    for (const item of items) {
      if (item.id === id) return item;
      const found = Array.isArray(item.submenu) ? this.item(id, item.submenu) : undefined;
      if (found) return found;
    }
    return undefined;
  }
  click(id: string): void {
    const item = this.item(id);
    if (!item?.click) throw new Error(`no clickable tray item ${id}`);
    (item.click as () => void)();
  }
}

type IpcHandler = (event: IpcMainInvokeEventLike, ...args: unknown[]) => unknown;

export interface FakeElectron extends ElectronApi {
  fake: {
    lockAvailable: boolean;
    quitCalls: number;
    /** app.relaunch() calls (each starts the app again once this one has quit). */
    relaunchCalls: number;
    dockHidden: boolean;
    switches: string[];
    userData: string;
    clipboard: string;
    errorBoxes: Array<{ title: string; content: string }>;
    /** Message boxes shown (their message), answered with `messageBoxAnswer` (a button index). */
    messageBoxes: string[];
    /** app.focus() and message boxes, in the order they came: `focus steal` / `focus`, `message box`. */
    focusAndDialogs: string[];
    messageBoxAnswer: number;
    /** app.isPackaged. */
    packaged: boolean;
    /** app.isInApplicationsFolder(). */
    inApplications: boolean;
    /** What app.moveToApplicationsFolder() does: answer (true = moved) or throw. */
    moveResult: boolean | Error;
    moveCalls: number;
    openedPaths: string[];
    shownInFolder: string[];
    openedUrls: string[];
    displays: DisplayLike[];
    trays: FakeTray[];
    handlers: Map<string, IpcHandler>;
    appListeners: Map<string, Array<(...args: never[]) => void>>;
    /** Sends an IPC invoke as if from `window`'s main frame (or from a stranger). */
    invoke(channel: string, request: unknown, from: FakeBrowserWindow | 'stranger' | 'subframe'): Promise<unknown>;
    emitScreen(event: string): void;
  };
}

export function createFakeElectron(options: { displays?: DisplayLike[]; lockAvailable?: boolean } = {}): FakeElectron {
  FakeBrowserWindow.all = [];
  FakeBrowserWindow.failWhen = undefined;
  const screenListeners = new Map<string, Array<() => void>>();
  const state: FakeElectron['fake'] = {
    lockAvailable: options.lockAvailable ?? true,
    quitCalls: 0,
    relaunchCalls: 0,
    dockHidden: false,
    switches: [],
    userData: mkdtempSync(join(tmpdir(), 'tandem-fake-userdata-')),
    clipboard: '',
    errorBoxes: [],
    messageBoxes: [],
    focusAndDialogs: [],
    messageBoxAnswer: 1,
    packaged: false,
    inApplications: true,
    moveResult: true,
    moveCalls: 0,
    openedPaths: [],
    shownInFolder: [],
    openedUrls: [],
    displays: options.displays ?? [{ id: 1, bounds: { x: 0, y: 0, width: 1280, height: 800 } }],
    trays: [],
    handlers: new Map(),
    appListeners: new Map(),
    async invoke(channel, request, from) {
      const handler = state.handlers.get(channel);
      if (!handler) throw new Error(`No handler registered for '${channel}'`);
      const event: IpcMainInvokeEventLike =
        from === 'stranger'
          ? { sender: { id: -1 }, senderFrame: {} }
          : from === 'subframe'
            ? { sender: { id: FakeBrowserWindow.all[0]?.webContents.id ?? -1 }, senderFrame: { name: 'iframe' } }
            : { sender: { id: from.webContents.id }, senderFrame: from.webContents.mainFrame };
      return handler(event, request);
    },
    emitScreen(event) {
      for (const listener of screenListeners.get(event) ?? []) listener();
    },
  };

  const electron: FakeElectron = {
    fake: state,
    app: {
      requestSingleInstanceLock: () => state.lockAvailable,
      quit: () => {
        state.quitCalls++;
      },
      exit: () => {
        state.quitCalls++;
      },
      relaunch: () => {
        state.relaunchCalls++;
      },
      whenReady: async () => {},
      focus: (options?: { steal: boolean }) => {
        state.focusAndDialogs.push(options?.steal ? 'focus steal' : 'focus');
      },
      on: (event: string, listener: (...args: never[]) => void) => {
        const list = state.appListeners.get(event) ?? [];
        list.push(listener);
        state.appListeners.set(event, list);
      },
      getVersion: () => '0.1.0-test',
      getPath: () => state.userData,
      get isPackaged() {
        return state.packaged;
      },
      isInApplicationsFolder: () => state.inApplications,
      moveToApplicationsFolder: () => {
        state.moveCalls++;
        if (state.moveResult instanceof Error) throw state.moveResult;
        return state.moveResult;
      },
      commandLine: {
        appendSwitch: (name: string) => {
          state.switches.push(name);
        },
      },
      dock: {
        hide: () => {
          state.dockHidden = true;
        },
      },
    },
    BrowserWindow: FakeBrowserWindow,
    Tray: class extends FakeTray {
      constructor(image: unknown) {
        super(image);
        state.trays.push(this);
      }
    },
    Menu: { buildFromTemplate: (template) => ({ template }) as unknown as Menu },
    ipcMain: {
      handle: (channel, listener) => {
        if (state.handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
        state.handlers.set(channel, listener);
      },
      removeHandler: (channel) => {
        state.handlers.delete(channel);
      },
    },
    screen: {
      getAllDisplays: () => state.displays,
      on: (event, listener) => {
        const list = screenListeners.get(event) ?? [];
        list.push(listener);
        screenListeners.set(event, list);
      },
    },
    shell: {
      openPath: async (path) => {
        state.openedPaths.push(path);
        return '';
      },
      showItemInFolder: (path) => {
        state.shownInFolder.push(path);
      },
      openExternal: async (url) => {
        state.openedUrls.push(url);
      },
    },
    clipboard: {
      writeText: (text) => {
        state.clipboard = text;
      },
    },
    dialog: {
      showErrorBox: (title, content) => {
        state.errorBoxes.push({ title, content });
      },
      showMessageBoxSync: (options) => {
        state.messageBoxes.push(options.message);
        state.focusAndDialogs.push('message box');
        return state.messageBoxAnswer;
      },
    },
    nativeImage: { createFromPath: (path) => ({ path }) as unknown as NativeImage },
    systemPreferences: {
      isTrustedAccessibilityClient: () => false,
      getMediaAccessStatus: () => 'not-determined',
    },
  };
  return electron;
}
