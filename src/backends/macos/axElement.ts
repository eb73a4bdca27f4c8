// AXUIElement access shared by the tree, the actions, activation and settle: attribute reads
// with the Copy rule handled through CFScope, per-app elements with their messaging timeout
// set, and the registry that keeps snapshot elements alive (retained) while core may still act
// on them — and turns a retired one into a stale-element error instead of a use-after-free.

import { TandemError } from '../../core/errors.js';
import type { MacNative, NullableRef, Ref } from '../../../native/macos/macNative.js';
import { CFDecoder } from '../../../native/macos/cfDecode.js';
import { CFScope } from '../../../native/macos/cfScope.js';
import { AXErrorCode, axErrorToTandem, type AXErrorContext } from './axErrors.js';

/** Seconds an AX call may block on an unresponsive app (the process default is ~6 s). */
export const AX_MESSAGING_TIMEOUT_S = 1.0;

export interface AxHandle {
  readonly ref: Ref;
  readonly pid: number;
  readonly generation: number;
}

export function isAxHandle(value: unknown): value is AxHandle {
  return typeof value === 'object' && value !== null && typeof (value as AxHandle).ref === 'bigint' && typeof (value as AxHandle).generation === 'number';
}

/**
 * Owns the elements of the last `keep` snapshots of each pid (CFRetain'd once each). Older
 * generations are released; their handles then resolve to a stale-element error.
 */
export class AxElementRegistry {
  private readonly generations = new Map<number, Array<{ generation: number; scope: CFScope; retained: Set<Ref> }>>();
  private readonly live = new Set<number>();
  private next = 1;

  constructor(
    private readonly cf: MacNative['cf'],
    private readonly keep = 3,
  ) {}

  begin(pid: number): number {
    const generation = this.next++;
    const list = this.generations.get(pid) ?? [];
    list.push({ generation, scope: new CFScope(this.cf), retained: new Set() });
    while (list.length > this.keep) {
      const retired = list.shift()!;
      this.live.delete(retired.generation);
      retired.scope.close();
    }
    this.generations.set(pid, list);
    this.live.add(generation);
    return generation;
  }

  /** Retains a borrowed element for the generation and returns its handle. */
  retain(pid: number, generation: number, borrowed: Ref): AxHandle {
    const entry = this.generations.get(pid)?.find((g) => g.generation === generation);
    if (!entry) throw new Error(`AxElementRegistry: generation ${generation} of pid ${pid} is not open`);
    // The same CF object listed twice (a quirky app) shares one retain: never adopt it twice.
    if (entry.retained.has(borrowed)) return { ref: borrowed, pid, generation };
    const ref = entry.scope.adopt(this.cf.CFRetain(borrowed));
    entry.retained.add(ref);
    return { ref, pid, generation };
  }

  resolve(handle: unknown): AxHandle {
    if (!isAxHandle(handle)) throw new TandemError('stale-element', 'This element does not come from a macOS tree snapshot.');
    if (!this.live.has(handle.generation)) {
      throw new TandemError('stale-element', 'This element comes from an old snapshot that is no longer kept.');
    }
    return handle;
  }

  releaseAll(): void {
    for (const list of this.generations.values()) for (const { scope } of list) scope.close();
    this.generations.clear();
    this.live.clear();
  }
}

export class AxSession {
  readonly decoder: CFDecoder;
  private readonly apps = new Map<number, Ref>();
  private readonly nameArrays = new Map<string, Ref>();
  private systemWide: Ref | null = null;

  constructor(readonly native: MacNative) {
    this.decoder = new CFDecoder(native);
  }

  name(attribute: string): Ref {
    return this.decoder.key(attribute);
  }

  /** A CFArray of attribute names, created once per list and kept until close(). */
  names(attributes: readonly string[]): Ref {
    const key = attributes.join('\n');
    let ref = this.nameArrays.get(key);
    if (ref === undefined) {
      const created = this.native.cf.CFArrayCreate(attributes.map((a) => this.name(a)));
      if (created === null) throw new TandemError('internal', 'CFArrayCreate returned NULL.');
      ref = created;
      this.nameArrays.set(key, ref);
    }
    return ref;
  }

  /** Throws the permission error when this process is not trusted for Accessibility. */
  requireTrust(): void {
    if (!this.native.ax.AXIsProcessTrusted()) throw axErrorToTandem(AXErrorCode.apiDisabled, { operation: 'using the accessibility API' });
  }

  /** AXTitle of the app's focused window (null when none answers). */
  focusedWindowTitle(pid: number): string | null {
    const scope = new CFScope(this.native.cf);
    try {
      const window = this.copy(scope, this.app(pid), 'AXFocusedWindow').value;
      return window !== null && this.decoder.isElement(window) ? this.decoder.string(this.copy(scope, window, 'AXTitle').value) : null;
    } finally {
      scope.close();
    }
  }

  /** The system-wide element (owned by the session), with the default timeout applied. */
  system(): Ref {
    if (this.systemWide === null) {
      const created = this.native.ax.AXUIElementCreateSystemWide();
      if (created === null) throw new TandemError('internal', 'AXUIElementCreateSystemWide returned NULL.');
      // Set on the system-wide element it becomes the process default for every element.
      this.native.ax.AXUIElementSetMessagingTimeout(created, AX_MESSAGING_TIMEOUT_S);
      this.systemWide = created;
    }
    return this.systemWide;
  }

  /** The application element for pid (owned by the session, kept while the app runs). */
  app(pid: number): Ref {
    let ref = this.apps.get(pid);
    if (ref === undefined) {
      this.system();
      const created = this.native.ax.AXUIElementCreateApplication(pid);
      if (created === null) throw new TandemError('unknown-app', `No app with pid ${pid}.`);
      this.native.ax.AXUIElementSetMessagingTimeout(created, AX_MESSAGING_TIMEOUT_S);
      ref = created;
      this.apps.set(pid, ref);
    }
    return ref;
  }

  /** Drops the cached element of an app that went away. */
  forgetApp(pid: number): void {
    const ref = this.apps.get(pid);
    if (ref !== undefined) {
      this.apps.delete(pid);
      this.native.cf.CFRelease(ref);
    }
  }

  /** Copy rule: the value (if any) is adopted by `scope`. Returns the AXError and the value. */
  copy(scope: CFScope, element: Ref, attribute: string): { error: number; value: NullableRef } {
    const out: NullableRef[] = [null];
    const error = this.native.ax.AXUIElementCopyAttributeValue(element, this.name(attribute), out);
    const value = error === AXErrorCode.success ? scope.adopt(out[0]) : null;
    return { error, value };
  }

  /** Reads attribute, throwing the mapped TandemError for failures other than "no value". */
  copyOrThrow(scope: CFScope, element: Ref, attribute: string, context: AXErrorContext): NullableRef {
    const { error, value } = this.copy(scope, element, attribute);
    if (error === AXErrorCode.noValue || error === AXErrorCode.attributeUnsupported) return null;
    if (error !== AXErrorCode.success) throw axErrorToTandem(error, context);
    return value;
  }

  readString(element: Ref, attribute: string): string | null {
    const scope = new CFScope(this.native.cf);
    try {
      return this.decoder.string(this.copy(scope, element, attribute).value);
    } finally {
      scope.close();
    }
  }

  pidOf(element: Ref): number | null {
    const out = [0];
    return this.native.ax.AXUIElementGetPid(element, out) === AXErrorCode.success ? out[0] : null;
  }

  /** CGWindowID of an AX window via the private _AXUIElementGetWindow (?); null when unavailable. */
  windowIdOf(element: Ref): number | null {
    const getWindow = this.native.ax._AXUIElementGetWindow;
    if (!getWindow) return null;
    const out = [0];
    return getWindow(element, out) === AXErrorCode.success && out[0] > 0 ? out[0] : null;
  }

  close(): void {
    for (const pid of [...this.apps.keys()]) this.forgetApp(pid);
    for (const ref of this.nameArrays.values()) this.native.cf.CFRelease(ref);
    this.nameArrays.clear();
    if (this.systemWide !== null) {
      this.native.cf.CFRelease(this.systemWide);
      this.systemWide = null;
    }
    this.decoder.close();
  }
}
