// Running apps, the frontmost app, activation and opening apps. AppKit's NSWorkspace lists are
// caches refreshed by the main run loop: correct inside Electron's main process, frozen in plain
// Node (the launcher's --direct mode, CI). So the live sources come first — the system-wide AX
// element and CGWindowList — and AppKit is used only where it is live.

import { basename } from 'node:path';
import { TandemError } from '../../core/errors.js';
import type { Frontmost, RunningApp, WindowInfo } from '../../core/model.js';
import { type Progress, remainingMs, sleep } from '../../core/progress.js';
import type { AppRequest, LaunchRequest, QuitRequest, ResolvedApp, StartedApp } from '../../core/desktop.js';
import type { MacNative, Ref } from '../../../native/macos/macNative.js';
import { CFScope, withCFScope } from '../../../native/macos/cfScope.js';
import { AXErrorCode } from './axErrors.js';
import type { AxSession } from './axElement.js';
import { appWindows, frontmostWindow, readWindowList } from './cgWindows.js';
import { runTool } from './macExec.js';

export type AppIdentifierKind = 'path' | 'bundle-id' | 'name';

/** "/Applications/TextEdit.app", "~/notes.txt" → path; "com.apple.TextEdit" → bundle id; else a name. */
export function classifyIdentifier(identifier: string): AppIdentifierKind {
  const trimmed = identifier.trim();
  if (trimmed.startsWith('/') || trimmed.startsWith('~') || trimmed.startsWith('./')) return 'path';
  if (/^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+){2,}$/.test(trimmed) && !/\.app$/i.test(trimmed)) return 'bundle-id';
  return 'name';
}

/** `open` arguments for an identifier (LaunchServices). No -g: the app is meant to come to the front. */
export function openArguments(identifier: string): string[] {
  const trimmed = identifier.trim();
  switch (classifyIdentifier(trimmed)) {
    case 'bundle-id':
      return ['-b', trimmed];
    case 'path': {
      const path = trimmed.startsWith('~') ? `${process.env.HOME ?? ''}${trimmed.slice(1)}` : trimmed;
      return /\.app\/?$/i.test(path) ? ['-a', path] : [path];
    }
    case 'name':
      return ['-a', trimmed.replace(/\.app$/i, '')];
  }
}

/**
 * `open` arguments for launch_app: -g (LaunchServices' "do not activate") for background, -n for
 * a new instance, the app, its documents and URLs, then `--args` and the app's own argv words.
 */
export function launchArguments(request: LaunchRequest): string[] {
  const identifier = request.value;
  const target = request.kind === 'id' ? ['-b', identifier] : request.kind === 'path' ? (/\.app\/?$/i.test(identifier) ? ['-a', identifier] : [identifier]) : ['-a', identifier.replace(/\.app$/i, '')];
  return [
    ...(request.background ? ['-g'] : []),
    ...(request.newInstance ? ['-n'] : []),
    ...target,
    ...request.urls,
    ...(request.args.length ? ['--args', ...request.args] : []),
  ];
}

/** Whether a running app is what the identifier names (case-insensitive name, bundle id, or .app path). */
export function matchesApp(app: RunningApp, identifier: string): boolean {
  const wanted = identifier.trim().toLowerCase();
  const name = app.name.toLowerCase();
  if (app.id && app.id.toLowerCase() === wanted) return true;
  if (name === wanted || `${name}.app` === wanted) return true;
  if (classifyIdentifier(identifier) === 'path' && /\.app\/?$/i.test(wanted)) {
    return basename(wanted.replace(/\/$/, ''), '.app') === name;
  }
  return false;
}

export class MacApps {
  constructor(
    private readonly native: MacNative,
    private readonly session: AxSession,
  ) {}

  private withPool<T>(body: () => T): T {
    const { objc } = this.native;
    const pool = objc.objc_autoreleasePoolPush();
    try {
      return body();
    } finally {
      objc.objc_autoreleasePoolPop(pool);
    }
  }

  private nsString(object: Ref | null): string | undefined {
    if (object === null) return undefined;
    return this.native.objc.msgSend_cstr(object, this.native.objc.sel_registerName('UTF8String')) ?? undefined;
  }

  /** NSRunningApplication for pid (looked up by pid each time (?) rather than a cached list). */
  private runningApplication(pid: number): Ref | null {
    const { objc } = this.native;
    const cls = objc.objc_getClass('NSRunningApplication');
    if (cls === null) return null;
    return objc.msgSend_id_i32(cls, objc.sel_registerName('runningApplicationWithProcessIdentifier:'), pid);
  }

  bundleId(pid: number): string | undefined {
    try {
      return this.withPool(() => {
        const app = this.runningApplication(pid);
        return app === null ? undefined : this.nsString(this.native.objc.msgSend_id(app, this.native.objc.sel_registerName('bundleIdentifier')));
      });
    } catch (error) {
      console.error('[tandem] bundle id lookup failed:', error);
      return undefined;
    }
  }

  /** The pid of the app whose element is at `point` (AX hit-testing): where a click or a scroll goes. */
  pidAt(point: { x: number; y: number }): number | null {
    return withCFScope(this.native.cf, (scope) => {
      const out: Array<Ref | null> = [null];
      const error = this.native.ax.AXUIElementCopyElementAtPosition(this.session.system(), point.x, point.y, out);
      if (error !== AXErrorCode.success || out[0] === null) return null;
      return this.session.pidOf(scope.adopt(out[0]));
    });
  }

  /** NSRunningApplication.activationPolicy (0 regular, 1 accessory, 2 prohibited), or null when AppKit does not know pid. */
  activationPolicy(pid: number): number | null {
    try {
      return this.withPool(() => {
        const app = this.runningApplication(pid);
        return app === null ? null : this.native.objc.msgSend_i64(app, this.native.objc.sel_registerName('activationPolicy'));
      });
    } catch (error) {
      console.error('[tandem] activation policy lookup failed:', error);
      return null;
    }
  }

  /** NSRunningApplication.localizedName, or undefined. */
  localizedName(pid: number): string | undefined {
    try {
      return this.withPool(() => {
        const app = this.runningApplication(pid);
        return app === null ? undefined : this.nsString(this.native.objc.msgSend_id(app, this.native.objc.sel_registerName('localizedName')));
      });
    } catch (error) {
      console.error('[tandem] app name lookup failed:', error);
      return undefined;
    }
  }

  /** Inside Electron main NSWorkspace is live: regular (Dock) apps with their bundle ids. */
  private workspaceApps(): RunningApp[] {
    const { objc } = this.native;
    const sel = (name: string): Ref => objc.sel_registerName(name);
    return this.withPool(() => {
      const cls = objc.objc_getClass('NSWorkspace');
      if (cls === null) return [];
      const workspace = objc.msgSend_id(cls, sel('sharedWorkspace'));
      const list = workspace === null ? null : objc.msgSend_id(workspace, sel('runningApplications'));
      if (list === null) return [];
      const apps: RunningApp[] = [];
      const count = objc.msgSend_u64(list, sel('count'));
      for (let i = 0; i < count; i++) {
        const app = objc.msgSend_id_u64(list, sel('objectAtIndex:'), i);
        if (app === null || objc.msgSend_i64(app, sel('activationPolicy')) !== 0) continue; // 0 = regular
        apps.push({
          pid: objc.msgSend_i32(app, sel('processIdentifier')),
          name: this.nsString(objc.msgSend_id(app, sel('localizedName'))) ?? '',
          id: this.nsString(objc.msgSend_id(app, sel('bundleIdentifier'))),
        });
      }
      return apps;
    });
  }

  listApps(): RunningApp[] {
    if (process.versions.electron) return this.workspaceApps();
    // Plain Node: apps that own a normal window anywhere (minimised and other Spaces included).
    const entries = readWindowList(this.native, this.session.decoder, false);
    const byPid = new Map<number, RunningApp>();
    for (const window of entries) {
      if (window.layer !== 0 || byPid.has(window.pid) || !window.owner) continue;
      byPid.set(window.pid, { pid: window.pid, name: window.owner });
    }
    for (const app of byPid.values()) app.id = this.bundleId(app.pid);
    return [...byPid.values()];
  }

  /** The app for pid if it answers on the accessibility API. */
  appForPid(pid: number): RunningApp | null {
    this.session.requireTrust();
    try {
      process.kill(pid, 0);
    } catch {
      return null;
    }
    const app = this.session.app(pid);
    const role = this.session.readString(app, 'AXRole');
    if (role !== 'AXApplication') return null;
    const name = this.session.readString(app, 'AXTitle') ?? `pid ${pid}`;
    return { pid, name, id: this.bundleId(pid) };
  }

  /** Live frontmost: system-wide AXFocusedApplication, else the first normal on-screen window. */
  frontmost(): Frontmost | null {
    const fromAx = withCFScope(this.native.cf, (scope) => {
      const { value } = this.session.copy(scope, this.session.system(), 'AXFocusedApplication');
      if (value === null || !this.session.decoder.isElement(value)) return null;
      const pid = this.session.pidOf(value);
      if (pid === null) return null;
      const app = this.session.readString(value, 'AXTitle') ?? `pid ${pid}`;
      const window = this.session.copy(scope, value, 'AXFocusedWindow').value;
      const windowId = window !== null && this.session.decoder.isElement(window) ? this.session.windowIdOf(window) ?? undefined : undefined;
      return { pid, app, windowId };
    });
    if (fromAx) return fromAx;
    const window = frontmostWindow(readWindowList(this.native, this.session.decoder, true));
    return window ? { pid: window.pid, app: window.owner, windowId: window.windowId } : null;
  }

  /**
   * Since macOS 14 a background process cannot force another app to the front: set AXFrontmost
   * on the app and AXRaise its window, then check live and say honestly whether it took.
   */
  async activate(pid: number, windowId: number | undefined, progress: Progress): Promise<boolean> {
    const { ax, cf } = this.native;
    const app = this.session.app(pid);
    const scope = new CFScope(cf);
    try {
      ax.AXUIElementSetAttributeValue(app, this.session.name('AXFrontmost'), cf.kCFBooleanTrue);
      const windows = this.session.decoder.arrayItems(this.session.copy(scope, app, 'AXWindows').value);
      const target = windows.find((w) => w !== null && windowId !== undefined && this.session.windowIdOf(w) === windowId) ?? (windowId === undefined ? null : windows[0]);
      if (target) {
        ax.AXUIElementPerformAction(target, this.session.name('AXRaise'));
        ax.AXUIElementSetAttributeValue(target, this.session.name('AXMain'), cf.kCFBooleanTrue);
      }
    } finally {
      scope.close();
    }
    if (await this.waitFrontmost(pid, 600, progress)) return true;
    // Second try through AppKit (honoured when Tandem itself is active, ignored otherwise on 14+).
    try {
      this.withPool(() => {
        const running = this.runningApplication(pid);
        if (running !== null) this.native.objc.msgSend_bool_u64(running, this.native.objc.sel_registerName('activateWithOptions:'), 3);
      });
    } catch (error) {
      progress.log(`activateWithOptions failed: ${String(error)}`);
    }
    return this.waitFrontmost(pid, 400, progress);
  }

  private async waitFrontmost(pid: number, ms: number, progress: Progress): Promise<boolean> {
    const until = Date.now() + Math.min(ms, remainingMs(progress));
    for (;;) {
      if (this.frontmost()?.pid === pid) return true;
      if (Date.now() >= until) return false;
      await sleep(50, progress);
    }
  }

  /** Whether the app's accessibility tree answers (its role reads, and it has a window unless `windowless` is allowed). */
  private answers(pid: number, windowless: boolean): boolean {
    const app = this.session.app(pid);
    return withCFScope(this.native.cf, (scope) => {
      const { error } = this.session.copy(scope, app, 'AXRole');
      if (error !== AXErrorCode.success) return false;
      const windows = this.session.decoder.arrayItems(this.session.copy(scope, app, 'AXWindows').value);
      return windowless || windows.length > 0;
    });
  }

  /** Whether the app's focused window is titled after the document at `path` (its handler was already in front). */
  private showsDocument(pid: number, path: string): boolean {
    const title = this.session.focusedWindowTitle(pid);
    return title !== null && title.length > 0 && basename(path).startsWith(title.replace(/ — Edited$/, ''));
  }

  /**
   * What open_application (kind 'any') or launch_app names, through LaunchServices' `open` (no
   * shell). open_application runs `open` even for a running app: that is how it comes forward
   * and opens the document. launch_app: -g keeps the person's front app in front
   * (LaunchServices' own "do not activate" option), -n starts another instance, documents and
   * URLs follow the app, `--args` hands the rest to the app's argv.
   */
  resolveApp(request: AppRequest): ResolvedApp {
    this.session.requireTrust();
    if (request.kind === 'any') return this.resolveOpen(request.value);
    const identifier = request.value;
    const before = this.listApps();
    const existing = before.find((app) => matchesApp(app, identifier));
    return {
      running: existing ? { ...existing } : null,
      startsWhenRunning: false,
      start: async (progress) => {
        try {
          await runTool('/usr/bin/open', launchArguments(request), Math.max(1000, Math.min(15_000, remainingMs(progress))));
        } catch (error) {
          throw new TandemError('unknown-app', `macOS could not open "${identifier}" (${error instanceof Error ? error.message : String(error)}).`, { identifier });
        }
        return this.launchArrival(identifier, new Set(before.map((app) => app.pid)), request.newInstance);
      },
    };
  }

  private resolveOpen(identifier: string): ResolvedApp {
    const kind = classifyIdentifier(identifier);
    const before = this.listApps();
    const existing = before.find((app) => matchesApp(app, identifier));
    const frontBefore = this.frontmost()?.pid;
    return {
      running: existing ?? null,
      startsWhenRunning: true,
      start: async (progress) => {
        try {
          await runTool('/usr/bin/open', openArguments(identifier), Math.max(1000, Math.min(15_000, remainingMs(progress))));
        } catch (error) {
          const running = before.map((a) => a.name).filter(Boolean).slice(0, 30).join(', ');
          throw new TandemError('unknown-app', `macOS could not open "${identifier}" (${error instanceof Error ? error.message : String(error)}). Running apps: ${running}.`, { reason: 'open-failed' });
        }
        return this.openArrival(identifier, kind, existing?.pid, frontBefore);
      },
    };
  }

  /** open_application's arrival: the app found by name/bundle id (or, for a document path, the one that came to the front) once its tree answers. */
  private openArrival(identifier: string, kind: AppIdentifierKind, existingPid: number | undefined, frontBefore: number | undefined): StartedApp {
    let pid = existingPid;
    // Apps that open no window (menu-bar apps) are accepted once they have answered for 3 s.
    let windowlessAfter: number | undefined;
    return {
      arrived: async () => {
        if (pid === undefined) {
          const found = this.listApps().find((app) => matchesApp(app, identifier));
          const front = this.frontmost();
          if (found) pid = found.pid;
          else if (kind === 'path' && front && front.pid !== process.pid && (front.pid !== frontBefore || this.showsDocument(front.pid, identifier))) pid = front.pid;
          else return null;
        }
        windowlessAfter ??= Date.now() + 3000;
        if (!this.answers(pid, Date.now() > windowlessAfter)) return null;
        return { ...(this.appForPid(pid) ?? { pid, name: identifier }), handedOver: false };
      },
      notArrived: () =>
        pid === undefined
          ? new TandemError('timeout', `"${identifier}" was opened but no matching app appeared in time.`, { reason: 'open-no-app' })
          : new TandemError('timeout', `The app for "${identifier}" (pid ${pid}) started but its accessibility tree did not answer in time.`, { reason: 'open-no-tree', pid }),
    };
  }

  /** launch_app's arrival: a new instance (or, without newInstance, any instance) once it shows a window on the accessibility API. */
  private launchArrival(identifier: string, known: ReadonlySet<number>, newInstance: boolean): StartedApp {
    let pid: number | undefined;
    return {
      arrived: async () => {
        if (pid === undefined) {
          const found = this.listApps().filter((app) => matchesApp(app, identifier));
          pid = (found.find((app) => !known.has(app.pid)) ?? (newInstance ? undefined : found[0]))?.pid;
          if (pid === undefined) return null;
        }
        if (!this.answers(pid, false)) return null;
        return { ...(this.appForPid(pid) ?? { pid, name: identifier }), handedOver: known.has(pid) };
      },
      notArrived: () =>
        pid === undefined
          ? new TandemError('timeout', `"${identifier}" was opened but no new instance of it appeared in time.`, { identifier })
          : new TandemError('timeout', `The app for "${identifier}" (pid ${pid}) started but showed no window on the accessibility API in time.`, { pid }),
    };
  }

  /**
   * The polite quit: NSRunningApplication terminate — the app's own Quit, which asks about
   * unsaved documents (a sheet) instead of losing them. AppKit answers whether the request was
   * sent; a process AppKit does not know (not a regular app) is not asked.
   */
  askToQuit(pid: number): QuitRequest {
    const sent = this.withPool(() => {
      const running = this.runningApplication(pid);
      return running !== null && this.native.objc.msgSend_bool(running, this.native.objc.sel_registerName('terminate'));
    });
    return { asked: sent ? 1 : 0, refused: sent ? 0 : 1 };
  }

  windows(pid: number | undefined): WindowInfo[] {
    return appWindows(readWindowList(this.native, this.session.decoder, false), pid);
  }
}
