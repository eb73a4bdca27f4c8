// The input guard on X11: an XInput2 active grab of each of the human's slave devices. Their
// events then go to this client only (so apps do not see them) while the XTEST devices — the
// agent's path — are untouched. The grab belongs to this client's own connection: if the process
// dies, the server drops it and the person gets their keyboard and mouse back. Devices are never
// floated or detached, since that would survive a crash and lock the person out. For the same
// reason a guard whose connection goes away (the server closed it, a socket error) holds
// nothing any more: the listener hears it at once (onLost) and core stops the call.

import type { XEvent, XIDeviceInfo, XInputExtension } from 'x11';
import type { EngagedGuard, GuardListener } from '../../core/desktop.js';
import { TandemError } from '../../core/errors.js';
import { sleep, throwIfAborted, type Progress } from '../../core/progress.js';
import { X11Connection } from '../../../native/linux/x11Connection.js';
import {
  XI_ALL_DEVICES,
  XI_EVENT,
  XI_GRAB_SUCCESS,
  eventMaskBits,
  parseGrabStatus,
  xiGrabDeviceRequest,
  xiUngrabDeviceRequest,
} from '../../../native/linux/xinputRequests.js';
import { Keymap, NAMED_KEYSYMS } from './x11Keys.js';

const SLAVE_POINTER = 3;
const SLAVE_KEYBOARD = 4;
const GRAB_MASK = eventMaskBits([XI_EVENT.keyPress, XI_EVENT.keyRelease, XI_EVENT.buttonPress, XI_EVENT.buttonRelease, XI_EVENT.motion]);
const HIERARCHY_MASK = eventMaskBits([XI_EVENT.hierarchyChanged]);
/** Lock (Caps Lock) and Mod2 (Num Lock) are latched states, not held modifiers: Esc still counts as plain. */
const LOCK_MODIFIERS = 0x02 | 0x10;
/** A device another client holds (a menu being open) is retried this long before giving up. */
const GRAB_RETRY_MS = 200;
const ESCAPE_KEYCODE_FALLBACK = 9;
/** Return and KP_Enter on the usual evdev keymap, when the server's keymap does not name them. */
const RETURN_KEYCODE_FALLBACK = 36;
const KP_ENTER_KEYCODE_FALLBACK = 104;
const KP_ENTER_KEYSYM = 0xff8d;

/**
 * The human's devices: enabled slave keyboards and pointers attached to a master, never the
 * server's XTEST devices (recognised by name and use, never by number).
 */
export function humanDevices(devices: readonly XIDeviceInfo[]): XIDeviceInfo[] {
  return devices.filter(
    (device) =>
      (device.use === SLAVE_POINTER || device.use === SLAVE_KEYBOARD) && device.enabled !== 0 && !/\bXTEST (pointer|keyboard)$/i.test(device.name),
  );
}

/** True for a key press that is plain Esc: the Esc keycode with no modifier held. */
export function isPlainEscape(keycode: number, effectiveModifiers: number, escapeKeycode: number): boolean {
  return keycode === escapeKeycode && (effectiveModifiers & ~LOCK_MODIFIERS) === 0;
}

/** True for a key press that is plain Enter: Return or keypad Enter with no modifier held (Num Lock does not count). */
export function isPlainEnter(keycode: number, effectiveModifiers: number, enterKeycodes: readonly number[]): boolean {
  return enterKeycodes.includes(keycode) && (effectiveModifiers & ~LOCK_MODIFIERS) === 0;
}

/** What the guard listens for: the keycodes of Esc and of the Enter keys. */
interface GuardKeys {
  escape: number;
  enter: readonly number[];
}

export class XInputGuard {
  private session: GuardSession | null = null;

  private constructor(
    private readonly connection: X11Connection,
    private readonly xinput: XInputExtension,
    private readonly keys: GuardKeys,
  ) {}

  /** Opens the guard's own X connection, so its events are never queued behind input requests. */
  static async open(displayName: string): Promise<XInputGuard> {
    const connection = await X11Connection.open(displayName);
    try {
      const xinput = await connection.request<XInputExtension>((callback) => connection.client.require('xinput', callback));
      if (!xinput.xi2 || xinput.xi2.majorVersion < 2 || (xinput.xi2.majorVersion === 2 && xinput.xi2.minorVersion < 2)) {
        throw new TandemError('unsupported', 'The X server lacks XInput 2.2, which the input guard needs.');
      }
      const { min_keycode: min, max_keycode: max } = connection.display;
      const rows = await connection.request<number[][]>((callback) => connection.client.GetKeyboardMapping(min, max - min + 1, callback));
      const keymap = new Keymap(min, rows);
      const escape = keymap.lookup(NAMED_KEYSYMS.escape)?.keycode ?? ESCAPE_KEYCODE_FALLBACK;
      const enter = [keymap.lookup(NAMED_KEYSYMS.return)?.keycode ?? RETURN_KEYCODE_FALLBACK, keymap.lookup(KP_ENTER_KEYSYM)?.keycode ?? KP_ENTER_KEYCODE_FALLBACK];
      return new XInputGuard(connection, xinput, { escape, enter });
    } catch (error) {
      await connection.close();
      throw error;
    }
  }

  async engage(listener: GuardListener, progress: Progress): Promise<EngagedGuard> {
    throwIfAborted(progress);
    if (this.session) await this.session.release();
    const session = new GuardSession(this.connection, this.xinput, this.keys, listener);
    this.session = session;
    try {
      await session.start(progress);
    } catch (error) {
      await session.release();
      throw error;
    }
    return {
      release: async () => {
        await session.release();
        if (this.session === session) this.session = null;
      },
    };
  }

  async close(): Promise<void> {
    await this.session?.release();
    this.session = null;
    await this.connection.close();
  }
}

class GuardSession {
  private readonly grabbed = new Set<number>();
  private released = false;
  private stopListening: (() => void) | null = null;
  private stopWatchingClose: (() => void) | null = null;
  private rescan: Promise<void> = Promise.resolve();

  constructor(
    private readonly connection: X11Connection,
    private readonly xinput: XInputExtension,
    private readonly keys: GuardKeys,
    private readonly listener: GuardListener,
  ) {}

  async start(progress: Progress): Promise<void> {
    this.stopListening = this.connection.onEvent((event) => this.onEvent(event));
    this.stopWatchingClose = this.connection.onClosed((error) => this.onConnectionClosed(error));
    // Watch for devices plugged in while engaged before looking at the current list, so none slips between.
    this.xinput.XISelectEvents(this.connection.root, { deviceId: XI_ALL_DEVICES, mask: HIERARCHY_MASK });
    const devices = humanDevices(await this.queryDevices());
    if (!devices.length) progress.log('Input guard: no human input device found on this display.');
    for (const device of devices) await this.grab(device, Date.now() + GRAB_RETRY_MS, progress);
  }

  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    this.stopListening?.();
    this.stopWatchingClose?.();
    if (this.connection.closed) return;
    try {
      this.xinput.XISelectEvents(this.connection.root, { deviceId: XI_ALL_DEVICES, mask: 0 });
      for (const deviceId of this.grabbed) {
        this.connection.sendRaw(xiUngrabDeviceRequest({ majorOpcode: this.xinput.majorOpcode, deviceId }));
      }
      this.grabbed.clear();
      await this.connection.sync();
    } catch (error) {
      // The connection is gone: the server has dropped the grabs with it.
      console.error('[xinputGuard] release:', (error as Error).message);
    }
  }

  /** The grabs went with the connection: the person has their input back, and core must know. */
  private onConnectionClosed(error: Error): void {
    if (this.released) return;
    this.released = true;
    this.stopListening?.();
    try {
      this.listener.onLost(`the input guard's X connection closed (${error.message})`);
    } catch (failure) {
      console.error('[xinputGuard] listener failed:', failure);
    }
  }

  private queryDevices(): Promise<XIDeviceInfo[]> {
    return this.connection.request<XIDeviceInfo[]>((callback) => this.xinput.XIQueryDevice(XI_ALL_DEVICES, callback));
  }

  private async grab(device: XIDeviceInfo, retryUntil: number, progress?: Progress): Promise<void> {
    for (;;) {
      if (this.released || this.grabbed.has(device.deviceId)) return;
      const request = xiGrabDeviceRequest({ majorOpcode: this.xinput.majorOpcode, window: this.connection.root, deviceId: device.deviceId, mask: GRAB_MASK });
      const status = await this.connection.requestRaw(request, parseGrabStatus);
      if (status === XI_GRAB_SUCCESS) {
        if (this.released) {
          this.connection.sendRaw(xiUngrabDeviceRequest({ majorOpcode: this.xinput.majorOpcode, deviceId: device.deviceId }));
          return;
        }
        this.grabbed.add(device.deviceId);
        return;
      }
      if (Date.now() >= retryUntil) {
        throw new TandemError('unsupported', `Cannot block "${device.name}": another program holds it (grab status ${status}).`, { reason: 'device-grabbed' });
      }
      await sleep(20, progress);
    }
  }

  private onEvent(event: XEvent): void {
    if (this.released || event.extension !== this.xinput.majorOpcode) return;
    if (event.evtype === XI_EVENT.hierarchyChanged) {
      this.rescan = this.rescan.then(() => this.grabNewDevices()).catch((error: unknown) => {
        console.error('[xinputGuard] grabbing a new device failed:', (error as Error).message);
      });
      return;
    }
    if (event.deviceId === undefined || !this.grabbed.has(event.deviceId)) return;
    try {
      if (event.evtype === XI_EVENT.keyPress) {
        const keycode = event.detail ?? 0;
        const modifiers = event.mods?.effective ?? 0;
        if (isPlainEscape(keycode, modifiers, this.keys.escape)) this.listener.onEscape();
        else if (this.listener.onEnter && isPlainEnter(keycode, modifiers, this.keys.enter)) this.listener.onEnter();
        else this.listener.onHumanInput('key');
      } else if (event.evtype === XI_EVENT.buttonPress) {
        this.listener.onHumanInput('pointer');
      }
    } catch (error) {
      console.error('[xinputGuard] listener failed:', error);
    }
  }

  private async grabNewDevices(): Promise<void> {
    if (this.released) return;
    for (const device of humanDevices(await this.queryDevices())) {
      if (!this.grabbed.has(device.deviceId)) await this.grab(device, Date.now() + GRAB_RETRY_MS);
    }
  }
}
