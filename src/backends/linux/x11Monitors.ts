// The monitors of the X screen from RandR ≥ 1.5 (GetMonitors: what a desktop shows as separate
// screens, including several monitors on one output), primary first; one screen-wide monitor
// where RandR is older or missing. Used by the overlay (a frame per monitor) and by
// get_screen_size.

import type { Display } from '../../core/model.js';
import type { X11Connection } from '../../../native/linux/x11Connection.js';
import { parseMonitors, parseRrVersion, rrGetMonitorsRequest, rrQueryVersionRequest } from '../../../native/linux/randrRequests.js';
import { extensionOpcode } from './x11Extensions.js';

/** The RANDR major opcode when the server speaks RandR ≥ 1.5 (monitors), else null (one screen-wide monitor). */
export function randr15Opcode(connection: X11Connection): Promise<number | null> {
  return extensionOpcode(connection, 'RANDR', { major: 1, minor: 5 }, (opcode) => rrQueryVersionRequest(opcode), parseRrVersion);
}

/**
 * The lit monitors, primary first; the whole screen as one when RandR cannot tell. X11 has no
 * separate point space: one point is one pixel (scale 1), whatever the toolkit's own scaling.
 */
export async function readMonitors(connection: X11Connection, randrOpcode: number | null): Promise<Display[]> {
  const whole: Display[] = [{ id: 0, bounds: { x: 0, y: 0, width: connection.screen.pixel_width, height: connection.screen.pixel_height }, scale: 1, primary: true }];
  if (randrOpcode === null) return whole;
  try {
    const monitors = await connection.requestRaw(rrGetMonitorsRequest(randrOpcode, connection.root), parseMonitors);
    const lit = monitors.filter((monitor) => monitor.width > 0 && monitor.height > 0);
    lit.sort((a, b) => Number(b.primary) - Number(a.primary));
    return lit.length ? lit.map(({ name, x, y, width, height, primary }) => ({ id: name, bounds: { x, y, width, height }, scale: 1, primary })) : whole;
  } catch {
    return whole;
  }
}
