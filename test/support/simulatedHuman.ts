// A simulated person at the X server's real keyboard and mouse. Each event is an XTEST FakeInput
// carrying an XI1 device event with the id of a real slave device ("Xvfb keyboard"/"Xvfb mouse"),
// so the server processes it exactly like hardware input from that device — and the input guard's
// grab applies to it, while Tandem's own XTEST input does not.

import type { XIDeviceInfo, XInputExtension, XTestExtension } from 'x11';
import { X11Connection } from '../../native/linux/x11Connection.js';
import { xtestDeviceEventRequest } from '../../native/linux/xinputRequests.js';
import { normalizeKey } from '../../src/core/input/keys.js';
import { Keymap, KEYSYM_SHIFT_L, keysymForKey, textToKeysyms } from '../../src/backends/linux/x11Keys.js';
import { humanDevices } from '../../src/backends/linux/xinputGuard.js';

const SLAVE_POINTER = 3;
const SLAVE_KEYBOARD = 4;

export class SimulatedHuman {
  private constructor(
    private readonly connection: X11Connection,
    private readonly xtestOpcode: number,
    private readonly xinputFirstEvent: number,
    private readonly pointer: XIDeviceInfo,
    private readonly keyboard: XIDeviceInfo,
    private readonly keymap: Keymap,
  ) {}

  static async connect(display: string): Promise<SimulatedHuman> {
    const connection = await X11Connection.open(display);
    const xtest = await connection.request<XTestExtension>((callback) => connection.client.require('xtest', callback));
    const xinput = await connection.request<XInputExtension>((callback) => connection.client.require('xinput', callback));
    const devices = humanDevices(await connection.request<XIDeviceInfo[]>((callback) => xinput.XIQueryDevice(0, callback)));
    const pointer = devices.find((device) => device.use === SLAVE_POINTER);
    const keyboard = devices.find((device) => device.use === SLAVE_KEYBOARD);
    if (!pointer || !keyboard) {
      await connection.close();
      throw new Error(`No real pointer/keyboard on ${display}: ${devices.map((device) => device.name).join(', ')}`);
    }
    const { min_keycode: min, max_keycode: max } = connection.display;
    const rows = await connection.request<number[][]>((callback) => connection.client.GetKeyboardMapping(min, max - min + 1, callback));
    return new SimulatedHuman(connection, xtest.majorOpcode, xinput.firstEvent, pointer, keyboard, new Keymap(min, rows));
  }

  async moveTo(x: number, y: number): Promise<void> {
    this.send('motion', 0, this.pointer, [Math.round(x), Math.round(y)]);
    await this.connection.sync();
  }

  async click(x: number, y: number, button = 1): Promise<void> {
    this.send('motion', 0, this.pointer, [Math.round(x), Math.round(y)]);
    this.send('button-press', button, this.pointer);
    this.send('button-release', button, this.pointer);
    await this.connection.sync();
  }

  /** Same names as core/input/keys.ts: "escape", "return", "a", "A"… (no modifiers: a person pressing one key). */
  async pressKey(name: string): Promise<void> {
    this.tap(keysymForKey(normalizeKey(name)));
    await this.connection.sync();
  }

  /** ASCII only: the person's keyboard has the layout's keys, nothing borrowed. */
  async typeText(text: string): Promise<void> {
    for (const keysym of textToKeysyms(text)) this.tap(keysym);
    await this.connection.sync();
  }

  async close(): Promise<void> {
    await this.connection.close();
  }

  private tap(keysym: number): void {
    const stroke = this.keymap.lookup(keysym);
    if (!stroke) throw new Error(`The simulated keyboard has no key for keysym 0x${keysym.toString(16)}`);
    const shift = stroke.shift ? this.keymap.lookup(KEYSYM_SHIFT_L)?.keycode : undefined;
    if (shift) this.send('key-press', shift, this.keyboard);
    this.send('key-press', stroke.keycode, this.keyboard);
    this.send('key-release', stroke.keycode, this.keyboard);
    if (shift) this.send('key-release', shift, this.keyboard);
  }

  private send(kind: Parameters<typeof xtestDeviceEventRequest>[0]['kind'], detail: number, device: XIDeviceInfo, valuators?: number[]): void {
    this.connection.sendRaw(
      xtestDeviceEventRequest({ xtestOpcode: this.xtestOpcode, xinputFirstEvent: this.xinputFirstEvent, kind, detail, deviceId: device.deviceId, valuators }),
    );
  }
}
