// Types for the parts of the `x11` npm package (4.2.2, pure JS, no types shipped) that Tandem
// uses. Callback API as the package exposes it; native/linux/x11Connection.ts wraps it in promises.

declare module 'x11' {
  import type { EventEmitter } from 'node:events';

  export type XCallback<T> = (error: XError | null | undefined, result: T) => unknown;

  /** An X protocol error as the package reports it. */
  export interface XError extends Error {
    error: number;
    seq: number;
    badParam: number;
    minorOpcode: number;
    majorOpcode: number;
  }

  export interface XScreen {
    root: number;
    pixel_width: number;
    pixel_height: number;
    root_depth: number;
    root_visual: number;
  }

  export interface XDisplay {
    screen: XScreen[];
    min_keycode: number;
    max_keycode: number;
    major: number;
    minor: number;
    vendor: string;
    client: XClient;
  }

  export interface XEvent {
    type: number;
    name?: string;
    seq: number;
    wid?: number;
    /** GenericEvent (XI2): extension major opcode and event subtype. */
    extension?: number;
    evtype?: number;
    deviceId?: number;
    sourceId?: number;
    detail?: number;
    flags?: number;
    mods?: { base: number; latched: number; locked: number; effective: number };
    rawData: Buffer;
    data?: Buffer;
  }

  export interface QueryExtensionReply {
    present: number;
    majorOpcode: number;
    firstEvent: number;
    firstError: number;
  }

  export interface PropertyReply {
    type: number;
    format: number;
    bytesAfter: number;
    data: Buffer;
  }

  export interface QueryPointerReply {
    root: number;
    child: number;
    rootX: number;
    rootY: number;
    keyMask: number;
  }

  export interface GeometryReply {
    windowid: number;
    depth: number;
    xPos: number;
    yPos: number;
    width: number;
    height: number;
    borderWidth: number;
  }

  export interface TranslateCoordinatesReply {
    child: number;
    destX: number;
    destY: number;
  }

  export interface QueryTreeReply {
    root: number;
    parent: number;
    children: number[];
  }

  export interface ImageReply {
    depth: number;
    visualId: number;
    data: Buffer;
  }

  export interface XClient extends EventEmitter {
    display: XDisplay;
    stream?: { on(event: 'close', listener: () => void): void };
    seq_num: number;
    replies: Record<number, unknown[]>;
    pack_stream: { put(buffer: Buffer): void; submit(expectsReply?: boolean): boolean };
    atoms: Record<string, number>;

    require(name: 'xtest', callback: XCallback<XTestExtension>): void;
    require(name: 'composite', callback: XCallback<CompositeExtension>): void;
    require(name: 'xinput', callback: XCallback<XInputExtension>): void;
    require(name: 'res', callback: XCallback<ResExtension>): void;
    require(name: 'xkb', callback: XCallback<XkbExtension>): void;
    require(name: 'damage', callback: XCallback<DamageExtension>): void;

    AllocID(): number;
    ReleaseID(id: number): void;
    sync(callback: (error: XError | null) => void): void;
    close(callback?: (error?: Error) => void): void;
    terminate(): void;

    QueryExtension(name: string, callback: XCallback<QueryExtensionReply>): void;
    InternAtom(onlyIfExists: boolean, name: string, callback: XCallback<number>): void;
    GetProperty(del: number, window: number, property: number, type: number, longOffset: number, longLength: number, callback: XCallback<PropertyReply>): void;
    QueryPointer(window: number, callback: XCallback<QueryPointerReply>): void;
    WarpPointer(srcWindow: number, dstWindow: number, srcX: number, srcY: number, srcWidth: number, srcHeight: number, dstX: number, dstY: number): void;
    GetGeometry(drawable: number, callback: XCallback<GeometryReply>): void;
    TranslateCoordinates(srcWindow: number, dstWindow: number, srcX: number, srcY: number, callback: XCallback<TranslateCoordinatesReply>): void;
    QueryTree(window: number, callback: XCallback<QueryTreeReply>): void;
    GetImage(format: number, drawable: number, x: number, y: number, width: number, height: number, planeMask: number, callback: XCallback<ImageReply>): void;
    FreePixmap(pixmap: number): void;
    GetKeyboardMapping(firstKeycode: number, count: number, callback: XCallback<number[][]>): void;
    ChangeKeyboardMapping(firstKeycode: number, keysymsPerKeycode: number, keysyms: number[]): void;
    GetModifierMapping(callback: XCallback<number[][]>): void;
    GetInputFocus(callback: XCallback<{ focus: number; revertTo: number }>): void;
    CreateWindow(id: number, parent: number, x: number, y: number, width: number, height: number, borderWidth?: number, depth?: number, windowClass?: number, visual?: number, values?: Record<string, number>): void;
    ChangeWindowAttributes(window: number, values: Record<string, number>): void;
    GetSelectionOwner(selection: number, callback: XCallback<number>): void;
    SetSelectionOwner(owner: number, selection: number, time?: number): void;
    MapWindow(window: number): void;
    UnmapWindow(window: number): void;
    ConfigureWindow(window: number, values: { x?: number; y?: number; width?: number; height?: number; stackMode?: number }): void;
    CreatePixmap(pixmap: number, drawable: number, depth: number, width: number, height: number): void;
    CreateGC(gc: number, drawable: number, values: Record<string, number>): void;
    PutImage(format: number, drawable: number, gc: number, width: number, height: number, dstX: number, dstY: number, leftPad: number, depth: number, data: Buffer): void;
    ClearArea(window: number, x: number, y: number, width: number, height: number, exposures: number): void;
    DestroyWindow(window: number): void;
    ChangeProperty(mode: number, window: number, property: number, type: number, format: 8 | 16 | 32, data: Buffer | number[] | string): void;
    SendClientMessage(destination: number, window: number, messageType: number, format: 8 | 16 | 32, data: number[], eventMask?: number): void;
  }

  export interface XkbExtension extends QueryExtensionReply {
    /** UseExtension's answer: non-zero when the server speaks the XKB version asked for. */
    supported: number;
  }

  export interface XTestExtension extends QueryExtensionReply {
    KeyPress: 2;
    KeyRelease: 3;
    ButtonPress: 4;
    ButtonRelease: 5;
    MotionNotify: 6;
    FakeInput(type: number, detail: number, time: number, window: number, x: number, y: number): void;
    GetVersion(major: number, minor: number, callback: XCallback<[number, number]>): void;
  }

  export interface CompositeExtension extends QueryExtensionReply {
    major: number;
    minor: number;
    Redirect: { Automatic: 0; Manual: 1 };
    RedirectSubwindows(window: number, updateType: number): void;
    NameWindowPixmap(window: number, pixmap: number): void;
  }

  /** DAMAGE 1.1: the server reports drawing into a drawable (damageproto.txt). */
  export interface DamageExtension extends QueryExtensionReply {
    major: number;
    minor: number;
    ReportLevel: { RawRectangles: 0; DeltaRectangles: 1; BoundingBox: 2; NonEmpty: 3 };
    Create(damage: number, drawable: number, reportLevel: number): void;
    Destroy(damage: number): void;
    /** repair 0 and parts 0: the whole damage is repaired, so the next drawing reports again. */
    Subtract(damage: number, repair: number, parts: number): void;
  }

  /** X-Resource 1.2: which process owns a client's resources (the server asks the kernel). */
  export interface ResExtension extends QueryExtensionReply {
    major: number;
    minor: number;
    ClientIdMask: { ClientXID: 1; LocalClientPID: 2 };
    QueryClientIds(specs: Array<{ client: number; mask: number }>, callback: XCallback<Array<{ client: number; mask: number; value: number[] }>>): void;
  }

  export interface XIDeviceInfo {
    deviceId: number;
    use: number;
    attachment: number;
    enabled: number;
    name: string;
  }

  export interface XInputExtension extends QueryExtensionReply {
    xi2: { majorVersion: number; minorVersion: number } | null;
    DeviceType: { MasterPointer: 1; MasterKeyboard: 2; SlavePointer: 3; SlaveKeyboard: 4; FloatingSlave: 5 };
    EventType: Record<string, number>;
    XIQueryDevice(deviceId: number, callback: XCallback<XIDeviceInfo[]>): void;
    XISelectEvents(window: number, masks: { deviceId: number; mask: number | Array<string | number> } | Array<{ deviceId: number; mask: number | Array<string | number> }>): boolean;
  }

  export interface CreateClientOptions {
    display?: string;
    /** Leave the MIT-SHM fd-passing transport out: Tandem never uses shared memory. */
    shm?: boolean | 'off';
  }

  export function createClient(options: CreateClientOptions, callback: (error: Error | undefined, display: XDisplay) => void): XClient;

  const x11: { createClient: typeof createClient };
  export default x11;
}
