// The koffi declarations, checked without a Mac: createKoffiMacNative runs against a recording
// stand-in for koffi, and the declared C signatures are compared with Apple's headers. A float
// turned into a double, a Boolean read as a 4-byte int or a variadic declaration would pass
// garbage on a real Mac without any error — here they fail.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type koffiModule from 'koffi';
import { createKoffiMacNative, FRAMEWORKS } from '../../native/macos/koffiMacNative.js';
import { decodeProcBsdInfo, encodeProcBsdInfo } from '../../native/macos/procBsdInfo.js';

type Spec = string;
interface Declaration {
  lib: string;
  name: string;
  result: Spec;
  args: Spec[];
}

function recordingKoffi(options: { missing?: string[] } = {}) {
  const declarations: Declaration[] = [];
  const loads: string[] = [];
  const native = new Map<string, (...args: unknown[]) => unknown>();
  // Each exported variable has its own address, and reading it gives a value of its own (globalValue).
  const symbols = new Map<string, bigint>();
  const globalValue = (name: string): bigint => (symbols.get(name) ?? 0n) + 0x1000n;
  const spec = (t: unknown): Spec => (typeof t === 'string' ? t : (t as { spec: string }).spec);
  const type = (s: string) => ({ spec: s });
  const fake = {
    types: new Proxy({}, { get: (_t, name) => type(String(name)) }),
    pointer: (t: unknown) => type(`${spec(t)} *`),
    out: (t: unknown) => type(`_Out_ ${spec(t)}`),
    struct: (def: Record<string, unknown>) => type(`{${Object.entries(def).map(([k, v]) => `${k}:${spec(v)}`).join(',')}}`),
    proto: (result: unknown, args: unknown[]) => type(`(${args.map(spec).join(',')})=>${spec(result)}`),
    decode: (address: bigint) => address + 0x1000n,
    register: () => 0x99n,
    unregister: () => undefined,
    load: (path: string) => {
      loads.push(path);
      return {
        func: (name: string, result: unknown, args: unknown[]) => {
          if (options.missing?.includes(name)) throw new Error(`symbol ${name} not found`);
          declarations.push({ lib: path, name, result: spec(result), args: args.map(spec) });
          return (...callArgs: unknown[]) => (native.get(name) ?? (() => 0))(...callArgs);
        },
        symbol: (name: string) => {
          if (options.missing?.includes(name)) throw new Error(`symbol ${name} not found`);
          if (!symbols.has(name)) symbols.set(name, 0x5000n + 0x10n * BigInt(symbols.size));
          return symbols.get(name);
        },
      };
    },
  };
  return { koffi: fake as unknown as typeof koffiModule, declarations, loads, native, globalValue };
}

const find = (declarations: Declaration[], name: string): Declaration => {
  const found = declarations.filter((d) => d.name === name);
  assert.equal(found.length, 1, `${name} declared ${found.length} times`);
  return found[0];
};

test('should open the frameworks by path, and AppKit only when Objective-C classes are needed', () => {
  const { koffi, loads } = recordingKoffi();
  const native = createKoffiMacNative(koffi);
  assert.deepEqual(loads, [FRAMEWORKS.coreFoundation, FRAMEWORKS.applicationServices, FRAMEWORKS.coreGraphics, FRAMEWORKS.objc, FRAMEWORKS.libSystem, FRAMEWORKS.carbon]);
  native.objc.objc_getClass('NSWorkspace');
  native.objc.objc_getClass('NSRunningApplication');
  assert.deepEqual(loads.slice(6), [FRAMEWORKS.appKit]);
});

test('should declare no variadic function', () => {
  const { koffi, declarations } = recordingKoffi();
  createKoffiMacNative(koffi);
  for (const d of declarations) assert.ok(!d.args.includes('...'), `${d.name} is declared variadic`);
});

test("should match Apple's signatures where a wrong width would silently corrupt the call", () => {
  const { koffi, declarations } = recordingKoffi();
  createKoffiMacNative(koffi);
  const sig = (name: string): string => {
    const d = find(declarations, name);
    return `${d.result} ${name}(${d.args.join(', ')})`;
  };
  const point = '{x:double,y:double}';
  assert.equal(sig('AXUIElementSetMessagingTimeout'), 'int32_t AXUIElementSetMessagingTimeout(void *, float)');
  assert.equal(sig('AXUIElementCopyMultipleAttributeValues'), 'int32_t AXUIElementCopyMultipleAttributeValues(void *, void *, uint32_t, _Out_ void * *)');
  assert.equal(sig('AXUIElementCopyAttributeValue'), 'int32_t AXUIElementCopyAttributeValue(void *, void *, _Out_ void * *)');
  assert.equal(sig('AXUIElementGetPid'), 'int32_t AXUIElementGetPid(void *, _Out_ int32_t *)');
  assert.equal(sig('_AXUIElementGetWindow'), 'int32_t _AXUIElementGetWindow(void *, _Out_ uint32_t *)');
  assert.equal(sig('AXIsProcessTrusted'), 'uint8_t AXIsProcessTrusted()');
  assert.equal(sig('IsSecureEventInputEnabled'), 'uint8_t IsSecureEventInputEnabled()');
  assert.equal(find(declarations, 'IsSecureEventInputEnabled').lib, FRAMEWORKS.carbon);
  // UnicodeUtilities.h: UInt16 keyCode and keyAction, UInt32 state/type/OptionBits, UniCharCount (unsigned long) max length.
  assert.equal(sig('UCKeyTranslate'), 'int32_t UCKeyTranslate(void *, uint16_t, uint16_t, uint32_t, uint32_t, uint32_t, void *, ulong, void *, void *)');
  assert.equal(sig('LMGetKbdType'), 'uint8_t LMGetKbdType()');
  assert.equal(sig('TISCopyCurrentKeyboardLayoutInputSource'), 'void * TISCopyCurrentKeyboardLayoutInputSource()');
  assert.equal(sig('TISGetInputSourceProperty'), 'void * TISGetInputSourceProperty(void *, void *)');
  for (const name of ['UCKeyTranslate', 'LMGetKbdType', 'TISCopyCurrentKeyboardLayoutInputSource', 'TISGetInputSourceProperty']) assert.equal(find(declarations, name).lib, FRAMEWORKS.carbon);
  assert.equal(sig('AXValueGetValue'), 'uint8_t AXValueGetValue(void *, uint32_t, void *)');
  assert.equal(sig('CFBooleanGetValue'), 'uint8_t CFBooleanGetValue(void *)');
  assert.equal(sig('CFNumberGetValue'), 'uint8_t CFNumberGetValue(void *, long, void *)');
  assert.equal(sig('CFStringGetCharacters'), 'void CFStringGetCharacters(void *, {location:long,length:long}, void *)');
  assert.equal(sig('CFRunLoopRunInMode'), 'int32_t CFRunLoopRunInMode(void *, double, uint8_t)');
  assert.equal(sig('CGEventCreateMouseEvent'), `void * CGEventCreateMouseEvent(void *, uint32_t, ${point}, uint32_t)`);
  assert.equal(sig('CGEventCreateKeyboardEvent'), 'void * CGEventCreateKeyboardEvent(void *, uint16_t, bool)');
  assert.equal(sig('CGEventCreateScrollWheelEvent2'), 'void * CGEventCreateScrollWheelEvent2(void *, uint32_t, uint32_t, int32_t, int32_t, int32_t)');
  assert.equal(sig('CGEventSetIntegerValueField'), 'void CGEventSetIntegerValueField(void *, uint32_t, int64_t)');
  assert.equal(sig('CGEventSetFlags'), 'void CGEventSetFlags(void *, uint64_t)');
  assert.equal(sig('CGEventKeyboardSetUnicodeString'), 'void CGEventKeyboardSetUnicodeString(void *, ulong, void *)');
  assert.equal(sig('CGEventTapCreate'), 'void * CGEventTapCreate(uint32_t, uint32_t, uint32_t, uint64_t, void *, void *)');
  assert.equal(sig('CGEventTapEnable'), 'void CGEventTapEnable(void *, bool)');
  assert.equal(sig('CGWarpMouseCursorPosition'), `int32_t CGWarpMouseCursorPosition(${point})`);
  assert.equal(sig('CGEventGetLocation'), `${point} CGEventGetLocation(void *)`);
  assert.equal(sig('CGDisplayBounds'), `{origin:${point},size:{width:double,height:double}} CGDisplayBounds(uint32_t)`);
  assert.equal(sig('CGWindowListCopyWindowInfo'), 'void * CGWindowListCopyWindowInfo(uint32_t, uint32_t)');
  assert.equal(sig('AXUIElementCopyElementAtPosition'), 'int32_t AXUIElementCopyElementAtPosition(void *, float, float, _Out_ void * *)');
  assert.equal(sig('proc_listallpids'), 'int proc_listallpids(void *, int)');
  assert.equal(sig('proc_pidinfo'), 'int proc_pidinfo(int, int, uint64_t, void *, int)');
  assert.equal(sig('proc_pidpath'), 'int proc_pidpath(int, void *, uint32_t)');
  assert.equal(sig('AXObserverCreate'), 'int32_t AXObserverCreate(int32_t, (void *,void *,void *,void *)=>void *, _Out_ void * *)');
});

test('should declare objc_msgSend once per signature, each taking (id, SEL) first', () => {
  const { koffi, declarations } = recordingKoffi();
  createKoffiMacNative(koffi);
  const sends = declarations.filter((d) => d.name === 'objc_msgSend');
  assert.ok(sends.length >= 8);
  for (const d of sends) assert.deepEqual(d.args.slice(0, 2), ['void *', 'void *']);
  const signatures = sends.map((d) => `${d.result}(${d.args.join(',')})`);
  assert.equal(new Set(signatures).size, signatures.length, 'one declaration per signature');
  assert.ok(signatures.includes('uint8_t(void *,void *,ulong)'), 'BOOL read as uint8');
});

test('should read IsSecureEventInputEnabled as a one-byte Boolean', () => {
  const { koffi, native } = recordingKoffi();
  const mac = createKoffiMacNative(koffi);
  native.set('IsSecureEventInputEnabled', () => 1);
  assert.equal(mac.hiToolbox.IsSecureEventInputEnabled(), true);
  native.set('IsSecureEventInputEnabled', () => 0);
  assert.equal(mac.hiToolbox.IsSecureEventInputEnabled(), false);
});

/** The recording koffi with a current keyboard layout behind the TIS calls: AZERTY's A key (kVK_ANSI_Q) types 'a'. */
function withLayout() {
  const recording = recordingKoffi();
  const { native, globalValue } = recording;
  const layout = { sourceId: 'com.apple.keylayout.French', keyboardType: 40, hasUnicodeData: true, translations: 0, released: [] as unknown[], asked: [] as unknown[] };
  native.set('TISCopyCurrentKeyboardLayoutInputSource', () => 0x10n);
  native.set('TISGetInputSourceProperty', (source: unknown, key: unknown) => {
    layout.asked.push([source, key]);
    if (key === globalValue('kTISPropertyInputSourceID')) return 0x40n;
    if (key === globalValue('kTISPropertyUnicodeKeyLayoutData')) return layout.hasUnicodeData ? 0x20n : null;
    return null;
  });
  native.set('CFStringGetLength', (ref: unknown) => (ref === 0x40n ? layout.sourceId.length : 0));
  native.set('CFStringGetCharacters', (ref: unknown, _range: unknown, buffer: unknown) => ref === 0x40n && (buffer as Buffer).write(layout.sourceId, 'utf16le'));
  native.set('CFDataGetBytePtr', (data: unknown) => (data === 0x20n ? 0x30n : 0n));
  native.set('LMGetKbdType', () => layout.keyboardType);
  native.set('CFRelease', (ref: unknown) => layout.released.push(ref));
  // As UCKeyTranslate answers: the length in a 64-bit UniCharCount, UTF-16 units.
  native.set('UCKeyTranslate', (...args: unknown[]) => {
    const [data, keycode, action, state, type, options, dead, max, length, chars] = args as [bigint, number, number, number, number, number, Buffer, number, Buffer, Buffer];
    assert.deepEqual([data, action, type, options, dead.readUInt32LE(0), max], [0x30n, 3, layout.keyboardType, 1, 0, 4]);
    layout.translations++;
    if (keycode !== 0x0c) return 0;
    length.writeBigUInt64LE(1n, 0);
    chars.write(state === 0x02 ? 'A' : 'a', 'utf16le');
    return 0;
  });
  return { mac: createKoffiMacNative(recording.koffi), layout, globalValue };
}

test("should read the current layout's keys through UCKeyTranslate and release the input source", () => {
  const { mac, layout, globalValue } = withLayout();
  const keys = mac.hiToolbox.keyboardLayoutKeys!()!;
  assert.equal(keys.length, 128);
  assert.deepEqual(keys[0x0c], { keycode: 0x0c, plain: 'a', shifted: 'A' });
  assert.deepEqual(keys[0x00], { keycode: 0x00, plain: '', shifted: '' });
  assert.deepEqual(layout.asked, [[0x10n, globalValue('kTISPropertyInputSourceID')], [0x10n, globalValue('kTISPropertyUnicodeKeyLayoutData')]], 'asked for the variables\' values');
  assert.deepEqual(layout.released, [0x10n], 'the copied input source is released, the properties (Get rule) are not');
  layout.sourceId = 'com.apple.keylayout.Russian';
  layout.hasUnicodeData = false;
  assert.equal(mac.hiToolbox.keyboardLayoutKeys!(), null, 'a layout without Unicode key data');
  assert.deepEqual(layout.released, [0x10n, 0x10n]);
});

test('should read the layout table again only when the input source or the keyboard type changes', () => {
  const { mac, layout } = withLayout();
  const first = mac.hiToolbox.keyboardLayoutKeys!();
  assert.equal(layout.translations, 256, 'two UCKeyTranslate calls for each of the 128 keys');
  assert.equal(mac.hiToolbox.keyboardLayoutKeys!(), first, 'the same layout: the table kept');
  assert.equal(layout.translations, 256);
  assert.deepEqual(layout.released, [0x10n, 0x10n], 'each press still copies and releases the current source');
  layout.sourceId = 'com.apple.keylayout.US';
  mac.hiToolbox.keyboardLayoutKeys!();
  assert.equal(layout.translations, 512, 'a layout switch is read at the next press');
  layout.keyboardType = 41;
  mac.hiToolbox.keyboardLayoutKeys!();
  assert.equal(layout.translations, 768, 'another keyboard (ISO, JIS) is read again');
});

test('should bind everything but the layout reader when a Text Input Source symbol is missing', (t) => {
  const errors = t.mock.method(console, 'error', () => undefined);
  for (const missing of ['UCKeyTranslate', 'kTISPropertyUnicodeKeyLayoutData']) {
    const { koffi, native } = recordingKoffi({ missing: [missing] });
    const mac = createKoffiMacNative(koffi);
    assert.equal(mac.hiToolbox.keyboardLayoutKeys, undefined, `${missing}: letters keep their US keys`);
    native.set('IsSecureEventInputEnabled', () => 1);
    assert.equal(mac.hiToolbox.IsSecureEventInputEnabled(), true);
    assert.equal(typeof mac.ax.AXUIElementCopyElementAtPosition, 'function');
  }
  assert.equal(errors.mock.callCount(), 2, 'said once per binding, on stderr');
  assert.match(String(errors.mock.calls[0].arguments[0]), /keyboard layout cannot be read/);
});

test('should refuse CFRelease(NULL) before it reaches CoreFoundation', () => {
  const { koffi, native } = recordingKoffi();
  let released = 0;
  native.set('CFRelease', () => released++);
  const mac = createKoffiMacNative(koffi);
  assert.throws(() => mac.cf.CFRelease(null as unknown as bigint), /CFRelease\(NULL\)/);
  assert.throws(() => mac.cf.CFRelease(0n), /CFRelease\(NULL\)/);
  mac.cf.CFRelease(0x10n);
  assert.equal(released, 1);
});

test('should run without the private _AXUIElementGetWindow when the symbol is missing', () => {
  const { koffi } = recordingKoffi({ missing: ['_AXUIElementGetWindow'] });
  assert.equal(createKoffiMacNative(koffi).ax._AXUIElementGetWindow, null);
});

test('should fail loudly at load when a required symbol is missing', () => {
  const { koffi } = recordingKoffi({ missing: ['AXUIElementCopyMultipleAttributeValues'] });
  assert.throws(() => createKoffiMacNative(koffi), /AXUIElementCopyMultipleAttributeValues not found/);
});

test('should read proc_bsdinfo only when proc_pidinfo filled all 136 bytes, and decode its layout', () => {
  const { koffi, native } = recordingKoffi();
  const info = { pid: 812, ppid: 1, uid: 501, comm: 'TextEdit', name: 'TextEdit', startMs: 1_700_000_000_123.456 };
  native.set('proc_pidinfo', (pid: unknown, flavor: unknown, _arg: unknown, buffer: unknown, size: unknown) => {
    assert.equal(flavor, 3, 'PROC_PIDTBSDINFO');
    assert.equal(size, 136);
    if (pid !== 812) return 0;
    encodeProcBsdInfo(info).copy(buffer as Buffer);
    return 136;
  });
  native.set('proc_pidpath', (pid: unknown, buffer: unknown) => (pid === 812 ? (buffer as Buffer).write('/System/Applications/TextEdit.app/Contents/MacOS/TextEdit') : 0));
  native.set('proc_listallpids', (buffer: unknown) => {
    [1, 812, 0].forEach((pid, i) => (buffer as Buffer).writeInt32LE(pid, i * 4));
    return 3;
  });
  const mac = createKoffiMacNative(koffi);
  const read = mac.proc.proc_bsdinfo(812)!;
  assert.deepEqual({ ...read, startMs: Math.round(read.startMs) }, { ...info, startMs: Math.round(info.startMs) });
  assert.equal(mac.proc.proc_bsdinfo(9), null, 'a short read (gone, not ours) is no answer');
  assert.equal(mac.proc.proc_pidpath(812), '/System/Applications/TextEdit.app/Contents/MacOS/TextEdit');
  assert.equal(mac.proc.proc_pidpath(9), null);
  assert.deepEqual(mac.proc.proc_listallpids(), [1, 812]);
});

test('should decode proc_bsdinfo fields at the offsets of <sys/proc_info.h>', () => {
  const buffer = Buffer.alloc(136);
  buffer.writeUInt32LE(4242, 12);
  buffer.writeUInt32LE(77, 16);
  buffer.writeUInt32LE(501, 20);
  buffer.write('Calculator', 48);
  buffer.write('Calculator', 64);
  buffer.writeBigUInt64LE(1_700_000_000n, 120);
  buffer.writeBigUInt64LE(250_000n, 128);
  assert.deepEqual(decodeProcBsdInfo(buffer), { pid: 4242, ppid: 77, uid: 501, comm: 'Calculator', name: 'Calculator', startMs: 1_700_000_000_250 });
  assert.throws(() => decodeProcBsdInfo(Buffer.alloc(100)), /136 bytes/);
});
