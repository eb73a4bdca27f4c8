// The scene both macOS background tests play on the fake binding: the person works in their own
// Notes window, in front, while the agent acts on another app's window; every activation of an
// app is counted, so a test can show that none happened.
import type { FakeMacNative } from './mac-fake-native.js';

export const TARGET = 42;
export const PERSON = 77;

/** An AX window of `title` with CG window id `windowId` holding `children`. */
export function fakeWindow(title: string, windowId: number, children: object[]) {
  return { role: 'AXWindow', title, windowId, position: { x: 0, y: 0 }, size: { width: 400, height: 300 }, children };
}

/**
 * Adds the person's Notes app in front of the target's window (`title`, CG id 5, already added
 * with fake.addApp) and returns how many times an app was activated since.
 */
export function personBeside(fake: FakeMacNative, title: string): () => number {
  fake.addApp(PERSON, { role: 'AXApplication', title: 'Notes', children: [fakeWindow('Notes', 9, [{ role: 'AXTextArea', value: '', focused: true, position: { x: 10, y: 10 }, size: { width: 380, height: 280 } }])] });
  const onScreen = (id: number, pid: number, owner: string) => ({ kCGWindowNumber: id, kCGWindowOwnerPID: pid, kCGWindowOwnerName: owner, kCGWindowLayer: 0, kCGWindowBounds: { X: 0, Y: 0, Width: 400, Height: 300 }, kCGWindowIsOnscreen: true });
  fake.windowList = [onScreen(9, PERSON, 'Notes'), onScreen(5, TARGET, title)];
  fake.focusedPid = PERSON;
  let activations = 0;
  const activateWithOptions = fake.objc.msgSend_bool_u64;
  fake.objc.msgSend_bool_u64 = (...args) => {
    activations++;
    return activateWithOptions(...args);
  };
  return () => activations;
}
