// A stand-in for the 'electron' module, for starting the real main process (dist/src/main/main.js)
// in plain Node: the Electron binary cannot be downloaded here. It records what main did (tray,
// windows) in TANDEM_STUB_STATE and quits like the tray's Quit on SIGUSR2.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const STUB = `
import { writeFileSync } from 'node:fs';
const statePath = process.env.TANDEM_STUB_STATE;
const state = { tray: [], tooltip: '', windows: [], quit: 0, errorBoxes: [] };
let trayTemplate = [];
const dump = () => writeFileSync(statePath, JSON.stringify(state));
const labels = (items) => items.map((item) => item.type === 'separator' ? '—' : item.label);
let nextId = 1;
export const app = {
  requestSingleInstanceLock: () => true,
  whenReady: async () => {},
  on: () => {},
  getVersion: () => '0.0.0-stub',
  getPath: () => process.env.TANDEM_STUB_USERDATA,
  isPackaged: false,
  commandLine: { appendSwitch: () => {} },
  dock: { hide: () => {} },
  quit: () => { state.quit++; dump(); process.exit(0); },
  exit: (code) => process.exit(code ?? 0),
};
export class BrowserWindow {
  constructor(options) {
    this.options = options;
    const id = nextId++;
    this.webContents = { id, mainFrame: {}, send: () => {}, once: () => {}, on: () => {}, setWindowOpenHandler: () => {} };
    this.record = { preload: options.webPreferences?.preload, transparent: Boolean(options.transparent) };
    state.windows.push(this.record);
    dump();
  }
  async loadFile(path, options) { this.record.path = path; this.record.view = options?.query?.view; dump(); }
  show() {} showInactive() {} hide() {} focus() {} close() {} destroy() {}
  isDestroyed() { return false; } isVisible() { return false; }
  setBounds() {} setIgnoreMouseEvents() {} setAlwaysOnTop() {} setVisibleOnAllWorkspaces() {} setContentProtection() {}
  on() { return this; }
}
export class Tray {
  constructor(image) { state.trayIcon = image.path; }
  setContextMenu(menu) { trayTemplate = menu.template; state.tray = labels(trayTemplate); dump(); }
  setToolTip(text) { state.tooltip = text; }
  destroy() {}
}
export const Menu = { buildFromTemplate: (template) => ({ template }) };
export const ipcMain = { handle: () => {}, removeHandler: () => {} };
export const screen = { getAllDisplays: () => [{ id: 1, bounds: { x: 0, y: 0, width: 1024, height: 768 } }], on: () => {} };
export const shell = { openPath: async () => '', showItemInFolder: () => {}, openExternal: async () => {} };
export const clipboard = { writeText: () => {} };
export const dialog = { showErrorBox: (title, content) => { state.errorBoxes.push({ title, content }); dump(); } };
export const nativeImage = { createFromPath: (path) => ({ path }) };
export const systemPreferences = { isTrustedAccessibilityClient: () => false, getMediaAccessStatus: () => 'unknown' };
// The test's "click Quit in the tray".
process.on('SIGUSR2', () => trayTemplate.find((item) => item.id === 'quit').click());
`;

const hook = (broken: readonly string[]): string => `
const BROKEN = ${JSON.stringify(broken)};
export async function resolve(specifier, context, next) {
  if (specifier === 'electron') return { url: new URL('./electron-stub.mjs', import.meta.url).href, shortCircuit: true };
  if (BROKEN.includes(specifier)) return { url: new URL('./broken-module.mjs', import.meta.url).href + '?' + specifier, shortCircuit: true };
  return next(specifier, context);
}
`;

/** What a native module that cannot load does (sharp with the wrong @img platform package). */
const BROKEN_MODULE = `throw new Error('Could not load the module using the ' + process.platform + '-' + process.arch + ' runtime (stand-in for a wrong-architecture native package)');\n`;


/**
 * Writes the stub and its resolve hook into `dir`; returns the URL to pass to `node --import`.
 * `broken` modules throw when imported, as a native module built for another platform does.
 */
export async function writeElectronStub(dir: string, options: { broken?: string[] } = {}): Promise<string> {
  await writeFile(join(dir, 'electron-stub.mjs'), STUB);
  await writeFile(join(dir, 'broken-module.mjs'), BROKEN_MODULE);
  await writeFile(join(dir, 'hook.mjs'), hook(options.broken ?? []));
  await writeFile(join(dir, 'register.mjs'), `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(join(dir, 'hook.mjs')).href)});\n`);
  return pathToFileURL(join(dir, 'register.mjs')).href;
}
