#!/usr/bin/env node
// The simulated person for the macOS end-to-end suite. Runs in its own process and posts
// UNTAGGED CGEvents (no Tandem marker in kCGEventSourceUserData), exactly what hardware input
// looks like to the guard's tap. Written with koffi directly, not through Tandem's bindings, so
// a wrong declaration on our side cannot hide behind the same wrong declaration here.
//
//   node humanPoster.js trusted              → prints true/false (AXIsProcessTrusted)
//   node humanPoster.js probe                → prints JSON: a real AX read (the Dock's AXRole),
//                                              CGPreflightPostEventAccess(), an active keyboard tap
//                                              created and removed, CGPreflightScreenCaptureAccess(),
//                                              IsSecureEventInputEnabled(), the on-screen windows
//                                              above the apps (macHarness.ts MacProbe)
//   node humanPoster.js click <x> <y>
//   node humanPoster.js type <text>
//   node humanPoster.js key <keycode> [flags]
//   node humanPoster.js cursor               → prints "x y"
//   node humanPoster.js move <x> <y>
//   node humanPoster.js value <pid> <window title part>
//                                            → prints JSON {"value": …}: the whole text of the
//                                              first text area in that window, read by the
//                                              suite's own AX reader (axReader.ts), or null
//   node humanPoster.js elements <pid>       → prints JSON: the app's elements (axReader.ts AxNode)

import { execFileSync } from 'node:child_process';
import koffi from 'koffi';
import { windowsOverApps } from '../../scripts/lib/macosOverlayWindows.js';
import { appElements, applicationRole, textAreaValue } from './axReader.js';
import type { MacProbe } from './macHarness.js';
import { onScreenWindows } from './windowList.js';

const CG = '/System/Library/Frameworks/CoreGraphics.framework/CoreGraphics';
const CF = '/System/Library/Frameworks/CoreFoundation.framework/CoreFoundation';
const AS = '/System/Library/Frameworks/ApplicationServices.framework/ApplicationServices';
/** HIToolbox (IsSecureEventInputEnabled), re-exported by the Carbon umbrella. */
const CARBON = '/System/Library/Frameworks/Carbon.framework/Carbon';

const cg = koffi.load(CG);
const cf = koffi.load(CF);
const VOIDP = koffi.pointer(koffi.types.void);
const Point = koffi.struct({ x: 'double', y: 'double' });
const CFRelease = cf.func('CFRelease', 'void', [VOIDP]);
const CGEventCreate = cg.func('CGEventCreate', VOIDP, [VOIDP]);
const CGEventGetLocation = cg.func('CGEventGetLocation', Point, [VOIDP]);
const CGEventCreateMouseEvent = cg.func('CGEventCreateMouseEvent', VOIDP, [VOIDP, 'uint32_t', Point, 'uint32_t']);
const CGEventCreateKeyboardEvent = cg.func('CGEventCreateKeyboardEvent', VOIDP, [VOIDP, 'uint16_t', 'bool']);
const CGEventKeyboardSetUnicodeString = cg.func('CGEventKeyboardSetUnicodeString', 'void', [VOIDP, 'ulong', VOIDP]);
const CGEventSetFlags = cg.func('CGEventSetFlags', 'void', [VOIDP, 'uint64_t']);
const CGEventPost = cg.func('CGEventPost', 'void', ['uint32_t', VOIDP]);

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function post(event: unknown): void {
  if (event === null) throw new Error('event creation failed');
  CGEventPost(0, event);
  CFRelease(event);
}

async function main(): Promise<void> {
  const [command, ...args] = process.argv.slice(2);
  switch (command) {
    case 'trusted': {
      const ax = koffi.load(AS);
      const trusted = ax.func('AXIsProcessTrusted', 'uint8_t', []);
      process.stdout.write(trusted() !== 0 ? 'true\n' : 'false\n');
      return;
    }
    case 'probe': {
      process.stdout.write(`${JSON.stringify(probe())}\n`);
      return;
    }
    case 'value': {
      process.stdout.write(`${JSON.stringify({ value: textAreaValue(Number(args[0]), args.slice(1).join(' ')) })}\n`);
      return;
    }
    case 'elements': {
      process.stdout.write(`${JSON.stringify(appElements(Number(args[0])))}\n`);
      return;
    }
    case 'cursor': {
      const event = CGEventCreate(null);
      const p = CGEventGetLocation(event) as { x: number; y: number };
      CFRelease(event);
      process.stdout.write(`${Math.round(p.x)} ${Math.round(p.y)}\n`);
      return;
    }
    case 'move': {
      post(CGEventCreateMouseEvent(null, 5, { x: Number(args[0]), y: Number(args[1]) }, 0));
      return;
    }
    case 'click': {
      const point = { x: Number(args[0]), y: Number(args[1]) };
      post(CGEventCreateMouseEvent(null, 5, point, 0));
      await sleep(30);
      post(CGEventCreateMouseEvent(null, 1, point, 0));
      await sleep(30);
      post(CGEventCreateMouseEvent(null, 2, point, 0));
      return;
    }
    case 'type': {
      for (const ch of args.join(' ')) {
        for (const down of [true, false]) {
          const event = CGEventCreateKeyboardEvent(null, 0, down);
          const utf16 = Buffer.from(ch, 'utf16le');
          CGEventKeyboardSetUnicodeString(event, utf16.length / 2, utf16);
          CGEventSetFlags(event, 0);
          post(event);
        }
        await sleep(20);
      }
      return;
    }
    case 'key': {
      const keycode = Number(args[0]);
      const flags = BigInt(args[1] ?? '0');
      for (const down of [true, false]) {
        const event = CGEventCreateKeyboardEvent(null, keycode, down);
        CGEventSetFlags(event, flags);
        post(event);
        await sleep(20);
      }
      return;
    }
    default:
      throw new Error(`unknown command ${command}`);
  }
}

/**
 * What this process may really do. AXIsProcessTrusted() alone is not enough: runners exist where
 * it is true while every read fails with -25204. So: read the Dock's AXRole, ask whether event
 * posting is allowed, and create (then at once remove) an active keyboard tap — what the guard does.
 * Then what the other tests need: Screen Recording (without it screenshots are refused), whether
 * Secure Event Input is on (event taps then see no keys, Esc included), and which windows sit
 * above the apps (an alert left up by the workflow's warm-up capture would take the focus).
 */
function probe(): MacProbe {
  const trusted = koffi.load(AS).func('AXIsProcessTrusted', 'uint8_t', [])() !== 0;
  let axRead: { error: number; role: string | null; pid: number | null } = { error: -1, role: null, pid: null };
  try {
    const pid = Number(execFileSync('/usr/bin/pgrep', ['-x', 'Dock']).toString().trim().split('\n')[0]);
    axRead = { ...applicationRole(pid), pid };
  } catch (error) {
    console.error('probe: the AX read could not run:', error);
  }

  let postEvent = false;
  try {
    postEvent = cg.func('CGPreflightPostEventAccess', 'bool', [])() === true;
  } catch (error) {
    console.error('probe: CGPreflightPostEventAccess:', error);
  }

  let activeTap = false;
  try {
    const TapCallback = koffi.proto(VOIDP, [VOIDP, 'uint32_t', VOIDP, VOIDP]);
    const CGEventTapCreate = cg.func('CGEventTapCreate', VOIDP, ['uint32_t', 'uint32_t', 'uint32_t', 'uint64_t', koffi.pointer(TapCallback), VOIDP]);
    const CGEventTapEnable = cg.func('CGEventTapEnable', 'void', [VOIDP, 'bool']);
    const CFMachPortInvalidate = cf.func('CFMachPortInvalidate', 'void', [VOIDP]);
    // The callback passes everything: the tap lives for a few microseconds and is never on a run loop.
    const callback = koffi.register((_proxy: unknown, _type: number, event: unknown) => event, koffi.pointer(TapCallback));
    // Session tap (1), head insert (0), active (0), key down (bit 10): what the guard creates.
    const tap = CGEventTapCreate(1, 0, 0, 1n << 10n, callback, null);
    if (tap !== null) {
      activeTap = true;
      CGEventTapEnable(tap, false);
      CFMachPortInvalidate(tap);
      CFRelease(tap);
    }
    koffi.unregister(callback);
  } catch (error) {
    console.error('probe: CGEventTapCreate:', error);
  }
  let screenCapture = false;
  try {
    screenCapture = cg.func('CGPreflightScreenCaptureAccess', 'bool', [])() === true;
  } catch (error) {
    console.error('probe: CGPreflightScreenCaptureAccess:', error);
  }

  let secureInput: boolean | null = null;
  try {
    secureInput = koffi.load(CARBON).func('IsSecureEventInputEnabled', 'uint8_t', [])() !== 0;
  } catch (error) {
    console.error('probe: IsSecureEventInputEnabled:', error);
  }

  let windowsAbove: MacProbe['windowsAbove'] = null;
  try {
    windowsAbove = windowsOverApps(onScreenWindows());
  } catch (error) {
    console.error('probe: CGWindowListCopyWindowInfo:', error);
  }
  return { trusted, axRead, postEvent, activeTap, screenCapture, secureInput, windowsAbove };
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
