// What the model reads from launch_app and kill_app: `key: value` lines and the same facts as
// structuredContent. The hints say the next move; for a kill that met a question they say that
// nothing was pressed and that only the model's (or the person's) decision may answer it.

import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { KillAppResult, LaunchAppResult } from '../core/engine.js';
import type { CallResult } from '../core/call/result.js';
import type { WindowInfo } from '../core/model.js';
import { POLITE_QUIT_WAIT_MS } from '../core/apps/appLifecycle.js';
import { formatElementLine, quoteText } from '../core/tree/treeFormat.js';
import { artifactLink } from './artifactResources.js';
import type { KillOutput, LaunchOutput, WindowsOutput } from './outputSchemas.js';

/** Dialog lines shown in the answer; the tree file has the rest. */
const MAX_DIALOG_LINES = 40;

function windowOutput(window: WindowInfo): WindowsOutput['windows'][number] {
  return {
    window_id: window.windowId,
    pid: window.pid,
    app: window.app ?? '',
    title: window.title,
    bounds: window.bounds ? { ...window.bounds } : null,
    ...(window.zOrder !== undefined ? { z_order: window.zOrder } : {}),
    ...(window.onScreen !== undefined ? { on_screen: window.onScreen } : {}),
  };
}

function windowLine(window: WindowInfo): string {
  const b = window.bounds;
  const bounds = b ? ` x:${Math.round(b.x)} y:${Math.round(b.y)} w:${Math.round(b.width)} h:${Math.round(b.height)}` : ' (no bounds)';
  return `window: ${window.windowId} title ${quoteText(window.title, '"', 120)}${bounds}${window.onScreen === false ? ' off_screen' : ''}`;
}

const FRONT_TEXT: Record<LaunchOutput['front'], string | undefined> = {
  'not-asked': undefined,
  kept: "the person's front window stayed in front",
  restored: "the person's front window was put back in front",
  failed: "the person's front window could not be put back in front (the window manager declined)",
};

/**
 * The launch answer; `tree` is the read of the app's tree taken once it arrived (its summary
 * lines follow the launch's, as open_application_and_traverse answers), or the message of why it
 * could not be read — the launch stands either way.
 */
export function renderLaunch(result: LaunchAppResult, tree?: { read: CallResult; rendered: CallToolResult } | { failed: string }): CallToolResult {
  const { app } = result;
  const started: LaunchOutput['started'] = app.alreadyRunning ? 'already-running' : app.handedOver ? 'handed-over' : 'new';
  const read = tree && 'read' in tree ? tree.read : undefined;
  const next = read?.file ? `grep its tree file ${read.file} for the element you need` : 'get_window_state reads its elements';
  const hint =
    started === 'already-running'
      ? `${app.name} was already running: nothing was started and the arguments were not passed. Act on pid ${app.pid} (${next}), or send new_instance: true to start another.`
      : `Act on pid ${app.pid}: ${next}.`;
  const structured: LaunchOutput = {
    status: 'ok',
    pid: app.pid,
    app: app.name,
    ...(app.id ? { id: app.id } : {}),
    started,
    windows: result.windows.map(windowOutput),
    front: result.front,
    ...(result.settled === false ? { settled: false as const } : {}),
    ...(read?.file ? { file: read.file } : {}),
    ...(read?.screenshot ? { screenshot: read.screenshot } : {}),
    ...(read ? { element_count: read.elementCount } : {}),
    ...(read?.revision !== undefined ? { revision: read.revision } : {}),
    duration_ms: Math.round(result.durationMs),
    hint,
  };
  const front = FRONT_TEXT[result.front];
  const lines = [
    'status: ok',
    `pid: ${app.pid}`,
    `app: ${quoteText(app.name)}`,
    `started: ${started}`,
    ...result.windows.map(windowLine),
    ...(front ? [`front: ${result.front}: ${front}`] : []),
    ...(result.settled === false ? [`settled: no: ${app.name} was still drawing its window when the wait for it ran out; the screenshot may show it half drawn: refresh_traversal in a moment shows it`] : []),
    ...(tree && 'failed' in tree ? [`tree: not read: ${tree.failed}`] : []),
    ...(read?.revision !== undefined ? [`revision: ${read.revision}`] : []),
    `hint: ${hint}`,
  ];
  // The tree's own lines (file, screenshot, elements) and its resource links; its status, revision and hint are the launch's.
  const treeContent = (tree && 'rendered' in tree ? tree.rendered.content : []).map((item, index) =>
    index === 0 && item.type === 'text' ? { ...item, text: item.text.split('\n').filter((line) => !/^(status|tool|pid|app|hint|revision): /.test(line)).join('\n') } : item,
  );
  return { content: [{ type: 'text', text: lines.join('\n') }, ...treeContent], structuredContent: structured };
}

function killHint(result: KillAppResult): string {
  switch (result.status) {
    case 'exited':
      return result.how === 'close'
        ? `${result.app} closed itself when asked: nothing unsaved was lost.`
        : `${result.app} was ended by ${result.how === 'kill' ? 'SIGKILL' : 'SIGTERM'}: any unsaved work in it may be lost.`;
    case 'asking':
      return `${result.app} asks before quitting and is still running; nothing was pressed in its question. Decide with the person: click one of its buttons (click {pid: ${result.pid}, element_index}) — saving, discarding or cancelling — or call kill_app {pid: ${result.pid}, force: true} to end it without saving (unsaved work is lost).`;
    case 'still-running':
      if (result.how !== 'close') return `${result.app} is still running after SIGKILL (stuck in the kernel?); tell the person.`;
      return result.asked && result.asked.asked === 0
        ? `${result.app} has no window that takes a polite close request; nothing was done. Call kill_app {pid: ${result.pid}, force: true} to end it (unsaved work may be lost), if the person agrees.`
        : `${result.app} did not quit within ${POLITE_QUIT_WAIT_MS / 1000} s and showed no question: read its tree file to see what it shows, or call kill_app {pid: ${result.pid}, force: true} to end it (unsaved work may be lost).`;
  }
}

export function renderKill(result: KillAppResult): CallToolResult {
  const hint = killHint(result);
  const dialogLines = (result.dialog?.elements ?? []).slice(0, MAX_DIALOG_LINES).map((el) => ({ element_index: el.index, line: formatElementLine(el) }));
  const structured: KillOutput = {
    status: result.status,
    pid: result.pid,
    app: result.app,
    how: result.how,
    unsaved_work_may_be_lost: result.unsavedWorkMayBeLost,
    ...(result.asked ? { windows_asked: result.asked.asked } : {}),
    ...(result.dialog ? { dialog: { ...(result.dialog.windowId !== undefined ? { window_id: result.dialog.windowId } : {}), title: result.dialog.title, elements: dialogLines } } : {}),
    windows: result.windows.map(windowOutput),
    ...(result.file ? { file: result.file } : {}),
    ...(result.screenshot ? { screenshot: result.screenshot } : {}),
    ...(result.revision !== undefined ? { revision: result.revision } : {}),
    duration_ms: Math.round(result.durationMs),
    hint,
  };
  const how = { close: `asked to close (${result.asked?.asked ?? 0} window(s)), as its close button would`, terminate: 'SIGTERM', kill: 'SIGTERM, then SIGKILL' }[result.how];
  const lines = [
    `status: ${result.status}`,
    `pid: ${result.pid}`,
    `app: ${quoteText(result.app)}`,
    `how: ${how}`,
    `unsaved_work: ${result.unsavedWorkMayBeLost ? 'may be lost' : 'kept (nothing was forced)'}`,
  ];
  if (result.dialog) {
    lines.push(`dialog: ${quoteText(result.dialog.title)}${result.dialog.windowId !== undefined ? ` window ${result.dialog.windowId}` : ''}`);
    lines.push(...dialogLines.map(({ element_index, line }) => `  #${element_index} ${line}`));
    if ((result.dialog.elements.length ?? 0) > dialogLines.length) lines.push(`  … ${result.dialog.elements.length - dialogLines.length} more in the file`);
  }
  lines.push(...result.windows.map(windowLine));
  if (result.file) lines.push(`file: ${result.file}`);
  if (result.screenshot) lines.push(`screenshot: ${result.screenshot}`);
  if (result.revision !== undefined) lines.push(`revision: ${result.revision}`);
  lines.push(`hint: ${hint}`);
  const links = [
    ...(result.file ? [artifactLink(result.file, 'tree', result.fileBytes)] : []),
    ...(result.screenshot ? [artifactLink(result.screenshot, 'screenshot')] : []),
  ];
  return { content: [{ type: 'text', text: lines.join('\n') }, ...links], structuredContent: structured };
}
