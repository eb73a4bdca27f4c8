// What the model reads from the read-only inspection tools: `key: value` lines (one per window
// or check) and the same facts as structuredContent.

import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Display, PermissionCheck, Point, WindowInfo } from '../core/model.js';
import { quoteText } from '../core/tree/treeFormat.js';
import type { DisplaysOutput, PermissionsOutput, WindowsOutput } from './outputSchemas.js';

const round = (value: number): number => Math.round(value);

function windowLine(window: WindowInfo): string {
  const bounds = window.bounds ? ` x:${round(window.bounds.x)} y:${round(window.bounds.y)} w:${round(window.bounds.width)} h:${round(window.bounds.height)}` : ' (no bounds)';
  const place = window.zOrder === undefined ? '' : ` z:${window.zOrder}`;
  const shown = window.onScreen === undefined ? '' : window.onScreen ? ' on_screen' : ' off_screen';
  return `window: ${window.windowId} pid ${window.pid} app ${quoteText(window.app ?? '')} title ${quoteText(window.title, '"', 120)}${bounds}${place}${shown}`;
}

export function renderWindows(windows: readonly WindowInfo[], filter: { pid?: number; onScreenOnly: boolean }): CallToolResult {
  const structured: WindowsOutput = {
    windows: windows.map((window) => ({
      window_id: window.windowId,
      pid: window.pid,
      app: window.app ?? '',
      title: window.title,
      bounds: window.bounds ? { x: window.bounds.x, y: window.bounds.y, width: window.bounds.width, height: window.bounds.height } : null,
      ...(window.zOrder !== undefined ? { z_order: window.zOrder } : {}),
      ...(window.onScreen !== undefined ? { on_screen: window.onScreen } : {}),
    })),
    count: windows.length,
  };
  const none = filter.pid !== undefined ? `pid ${filter.pid} has no ${filter.onScreenOnly ? 'window on screen' : 'top-level window'}` : 'no windows';
  const lines = [
    'status: ok',
    `count: ${windows.length}`,
    ...windows.map(windowLine),
    windows.length
      ? 'hint: Frontmost first (z:0). Coordinates are screen points. Read a window\'s elements with refresh_traversal {pid}.'
      : `hint: ${none}: list_applications shows the running apps; open_application_and_traverse starts one.`,
  ];
  return { content: [{ type: 'text', text: lines.join('\n') }], structuredContent: structured };
}

export function renderCursor(point: Point): CallToolResult {
  const at = { x: round(point.x), y: round(point.y) };
  return {
    content: [{ type: 'text', text: `status: ok\nx: ${at.x}\ny: ${at.y}\nhint: Screen points, the same space as the x:/y: of tree lines.` }],
    structuredContent: at,
  };
}

export function renderPermissions(checks: readonly PermissionCheck[]): CallToolResult {
  const missing = checks.filter((check) => check.state === 'denied' || check.state === 'unknown');
  const structured: PermissionsOutput = {
    checks: checks.map(({ id, title, state, detail, remedy }) => ({ id, title, state, detail, ...(remedy ? { remedy } : {}) })),
    all_granted: missing.length === 0,
  };
  const lines = [
    'status: ok',
    ...checks.map((check) => `check: ${check.id} ${check.state}: ${check.title} — ${check.detail}${check.state !== 'granted' && check.remedy ? ` Remedy: ${check.remedy}` : ''}`),
    missing.length
      ? `hint: ${missing.map((check) => check.id).join(', ')} ${missing.length === 1 ? 'is' : 'are'} not granted: tell the person the remedy; only they can change it (or run \`tandem doctor\`).`
      : 'hint: Everything Tandem needs is in place.',
  ];
  return { content: [{ type: 'text', text: lines.join('\n') }], structuredContent: structured };
}

export function renderDisplays(displays: readonly Display[]): CallToolResult {
  const structured: DisplaysOutput = {
    displays: displays.map(({ id, bounds, scale, primary }) => ({ id, bounds, scale, primary, pixel_width: Math.round(bounds.width * scale), pixel_height: Math.round(bounds.height * scale) })),
    count: displays.length,
  };
  const lines = [
    'status: ok',
    `count: ${displays.length}`,
    ...structured.displays.map((d) => `display: ${d.id} x:${round(d.bounds.x)} y:${round(d.bounds.y)} w:${round(d.bounds.width)} h:${round(d.bounds.height)} scale:${d.scale} (${d.pixel_width}×${d.pixel_height} pixels)${d.primary ? ' primary' : ''}`),
    'hint: Bounds are screen points, the space of tree coordinates; scale is image pixels per point.',
  ];
  return { content: [{ type: 'text', text: lines.join('\n') }], structuredContent: structured };
}
