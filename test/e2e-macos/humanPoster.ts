#!/usr/bin/env node
// The simulated person for the macOS end-to-end suite. Runs in its own process and posts
// UNTAGGED CGEvents (no Tandem marker in kCGEventSourceUserData), exactly what hardware input
// looks like to the guard's tap. Written with koffi directly, not through Tandem's bindings, so
// a wrong declaration on our side cannot hide behind the same wrong declaration here.
//
//   node humanPoster.js trusted              → prints true/false (AXIsProcessTrusted)
//   node humanPoster.js click <x> <y>
//   node humanPoster.js type <text>
//   node humanPoster.js key <keycode> [flags]
//   node humanPoster.js cursor               → prints "x y"
//   node humanPoster.js move <x> <y>

import koffi from 'koffi';

const CG = '/System/Library/Frameworks/CoreGraphics.framework/CoreGraphics';
const CF = '/System/Library/Frameworks/CoreFoundation.framework/CoreFoundation';
const AS = '/System/Library/Frameworks/ApplicationServices.framework/ApplicationServices';

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

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
