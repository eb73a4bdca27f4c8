// The suite's own read of the window server's on-screen window list (owner, name, layer), for
// the probe: a system alert left up after the workflow's warm-up capture shows here. koffi is
// declared here, not through Tandem's bindings, like the rest of the suite's own readers.

import koffi from 'koffi';
import type { OnScreenWindow } from '../../scripts/lib/macosOverlayWindows.js';
import { stringOf } from './axReader.js';

const CF = '/System/Library/Frameworks/CoreFoundation.framework/CoreFoundation';
const CG = '/System/Library/Frameworks/CoreGraphics.framework/CoreGraphics';
const UTF8 = 0x08000100;
/** kCGWindowListOptionOnScreenOnly | kCGWindowListExcludeDesktopElements. */
const ON_SCREEN_NO_DESKTOP = (1 << 0) | (1 << 4);
/** kCFNumberSInt32Type. */
const SINT32 = 3;

const cf = koffi.load(CF);
const cg = koffi.load(CG);
const VOIDP = koffi.pointer(koffi.types.void);
const CFRelease = cf.func('CFRelease', 'void', [VOIDP]);
const CFArrayGetCount = cf.func('CFArrayGetCount', 'long', [VOIDP]);
const CFArrayGetValueAtIndex = cf.func('CFArrayGetValueAtIndex', VOIDP, [VOIDP, 'long']);
const CFDictionaryGetValue = cf.func('CFDictionaryGetValue', VOIDP, [VOIDP, VOIDP]);
const CFNumberGetValue = cf.func('CFNumberGetValue', 'uint8_t', [VOIDP, 'long', VOIDP]);
const CFStringCreateWithCString = cf.func('CFStringCreateWithCString', VOIDP, [VOIDP, 'str', 'uint32_t']);
const CGWindowListCopyWindowInfo = cg.func('CGWindowListCopyWindowInfo', VOIDP, ['uint32_t', 'uint32_t']);

/** The kCGWindow… keys are CFStrings equal to their constant's name. */
const key = (name: string): unknown => CFStringCreateWithCString(null, name, UTF8);

/** Every on-screen window (desktop elements left out), front to back. Throws when the list cannot be read. */
export function onScreenWindows(): OnScreenWindow[] {
  const list = CGWindowListCopyWindowInfo(ON_SCREEN_NO_DESKTOP, 0);
  if (list === null) throw new Error('CGWindowListCopyWindowInfo gave NULL');
  const keys = { owner: key('kCGWindowOwnerName'), name: key('kCGWindowName'), layer: key('kCGWindowLayer') };
  try {
    const windows: OnScreenWindow[] = [];
    const count = Number(CFArrayGetCount(list));
    for (let i = 0; i < count; i++) {
      const entry = CFArrayGetValueAtIndex(list, i);
      const layer = Buffer.alloc(4);
      const layerRef = CFDictionaryGetValue(entry, keys.layer);
      const hasLayer = layerRef !== null && CFNumberGetValue(layerRef, SINT32, layer) !== 0;
      windows.push({
        owner: stringOf(CFDictionaryGetValue(entry, keys.owner)) ?? '',
        // Without Screen Recording other apps' window names are withheld: an empty name, not an error.
        name: stringOf(CFDictionaryGetValue(entry, keys.name)) ?? '',
        layer: hasLayer ? layer.readInt32LE(0) : 0,
      });
    }
    return windows;
  } finally {
    CFRelease(list);
    for (const ref of Object.values(keys)) if (ref !== null) CFRelease(ref);
  }
}
