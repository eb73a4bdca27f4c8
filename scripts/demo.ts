// `npm run demo`: Tandem end to end on a real (virtual) Linux desktop, as an MCP client sees it.
//
// Installs the Debian packages it needs (as root; otherwise prints the apt-get command), starts a
// virtual X desktop with the accessibility bus, spawns `tandem mcp --direct` through the MCP SDK's
// stdio client, and runs a short scripted agent session on real GTK apps: open mousepad, type
// into it in one chained call, click a counter, fill a form, and click a button whose window
// belongs to another process (a handoff). Each summary is printed; the screenshots are laid out on
// a contact sheet. Everything it started is ended at the end.
//
//   npm run demo                      # on a virtual desktop (Xvfb), nothing on your screen moves
//   npm run demo -- --real            # on your own X session ($DISPLAY): watch it, keep hands off
//   npm run demo -- --out <dir>       # where artifacts and the contact sheet go (default test-output/demo)
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { writeContactSheet, type SheetTile } from './lib/contactSheet.js';
import { FIXTURE_PATH, McpSession, REPO_ROOT, SYSTEM_PYTHON, type ToolResult } from './lib/mcpSession.js';
import { parseTreeLines, type TreeLine } from './lib/treeLines.js';
import { ensureDesktopPackages, startVirtualDesktop, type VirtualDesktop } from './lib/virtualDesktop.js';

interface Options {
  real: boolean;
  out: string;
}

function parseOptions(): Options {
  const { values } = parseArgs({
    options: {
      real: { type: 'boolean', default: false },
      out: { type: 'string', default: join(REPO_ROOT, 'test-output', 'demo') },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log('Usage: npm run demo [-- --real] [-- --out <dir>]');
    process.exit(0);
  }
  if (values.real && !process.env.DISPLAY) throw new Error('--real needs an X session: $DISPLAY is not set.');
  return { real: values.real ?? false, out: resolve(values.out ?? 'test-output/demo') };
}

/** One scripted agent step: the call, its printed summary, its screenshot for the sheet. */
class Session {
  readonly tiles: SheetTile[] = [];
  failures = 0;
  private count = 0;

  constructor(private readonly mcp: McpSession) {}

  async step(caption: string, tool: string, args: Record<string, unknown>): Promise<ToolResult> {
    this.count++;
    console.log(`\n── ${this.count}. ${caption}`);
    console.log(`   ${tool} ${JSON.stringify(args)}`);
    const started = Date.now();
    const result = await this.mcp.call(tool, args);
    console.log(indent(result.text));
    if (result.texts.length > 1) {
      const [first, ...rest] = result.texts[1].split('\n');
      console.log(indent(`${first}\n${rest.slice(0, 8).join('\n')}${rest.length > 8 ? `\n… ${rest.length - 8} more lines` : ''}`));
    }
    console.log(`   (round trip ${Date.now() - started} ms)`);
    if (result.isError) this.failures++;
    const screenshot = result.structured.screenshot;
    if (typeof screenshot === 'string') this.tiles.push({ path: screenshot, caption });
    return result;
  }
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `   │ ${line}`)
    .join('\n');
}

/** The largest visible element of a role, e.g. an editor's text area. */
function largestVisible(treeFile: string, role: string): TreeLine | undefined {
  return parseTreeLines(readFileSync(treeFile, 'utf8'))
    .filter((line) => line.role === role && / visible/.test(line.line) && Number.isFinite(line.width))
    .sort((a, b) => b.width * b.height - a.width * a.height)[0];
}

/** Starts the fixture app and resolves with its pid once its window is up. */
function startFixture(start: (command: string, args: string[]) => ChildProcess): Promise<ChildProcess> {
  const child = start(SYSTEM_PYTHON, [FIXTURE_PATH]);
  return new Promise((resolvePromise, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`The fixture app did not start:\n${output}`)), 15_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('"event": "ready"')) {
        clearTimeout(timer);
        resolvePromise(child);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`The fixture app exited (${code}):\n${output}`));
    });
  });
}

async function runScript(session: Session, fixtureStarter: () => Promise<ChildProcess>): Promise<void> {
  // 1. Open a real editor: the tree and the screenshot land in files the summary names.
  const opened = await session.step('open mousepad', 'open_application_and_traverse', { identifier: 'mousepad' });
  const editorPid = opened.structured.pid as number | undefined;
  const treeFile = opened.structured.file as string | undefined;
  const textArea = treeFile ? largestVisible(treeFile, 'Text') : undefined;
  if (editorPid && textArea) {
    // 2. One guarded call: click the text area, type (non-ASCII included), press Return, type more.
    await session.step('click, type, Return, type — one call', 'click_and_traverse', {
      pid: editorPid,
      x: textArea.x,
      y: textArea.y,
      width: textArea.width,
      height: textArea.height,
      text: 'Hello from Tandem: héllo € ✓',
      pressKey: 'return',
      steps: [{ action: 'type', text: 'Typed while your keyboard was held back.' }],
    });
  } else {
    console.log('   (no text area found in the mousepad tree: skipping the typing step)');
    session.failures++;
  }

  // 3–6. The fixture app: read it, click its counter, fill its form, open a window of another process.
  const fixture = await fixtureStarter();
  const pid = fixture.pid!;
  await session.step('read the fixture app', 'refresh_traversal', { pid });
  await session.step('click the counter', 'click_and_traverse', { pid, element: 'Count: 0', role: 'button' });
  await session.step('fill a field and press Return', 'click_and_traverse', { pid, element: 'Name entry', role: 'text', text: 'Ada Lovelace', pressKey: 'return' });
  await session.step('handoff: a button opens another process’s window', 'click_and_traverse', { pid, element: 'Open helper window', role: 'button' });
}

async function main(): Promise<void> {
  const options = parseOptions();
  const artifacts = join(options.out, 'artifacts');
  mkdirSync(options.out, { recursive: true, mode: 0o700 });
  let desktop: VirtualDesktop | null = null;
  const ownApps: ChildProcess[] = [];
  let mcp: McpSession | null = null;
  try {
    let env: NodeJS.ProcessEnv;
    let spawnApp: (command: string, args: string[]) => ChildProcess;
    if (options.real) {
      env = process.env;
      console.log(`Using your X session ${process.env.DISPLAY}: keep your hands off the keyboard and mouse (Esc cancels a call).`);
      spawnApp = (command, args) => {
        const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'inherit'] });
        ownApps.push(child);
        return child;
      };
    } else {
      ensureDesktopPackages();
      desktop = await startVirtualDesktop({ log: (line) => console.log(line) });
      env = desktop.env;
      spawnApp = (command, args) => desktop!.spawnApp(command, args);
    }

    const started = Date.now();
    mcp = await McpSession.start({ env }, { env: { TANDEM_ARTIFACTS_DIR: artifacts } });
    const tools = await mcp.client.listTools();
    console.log(`\nMCP server \`tandem mcp --direct\` (pid ${mcp.pid}) ready in ${Date.now() - started} ms with ${tools.tools.length} tools: ${tools.tools.map((tool) => tool.name).join(', ')}`);

    const session = new Session(mcp);
    await runScript(session, () => startFixture(spawnApp));

    const sheet = join(options.out, 'tandem-demo-contact-sheet.png');
    if (session.tiles.length) {
      await writeContactSheet(session.tiles, sheet);
      console.log(`\nContact sheet of ${session.tiles.length} screenshots: ${sheet}`);
    }
    console.log(`Artifacts (trees, diffs, screenshots): ${artifacts}`);
    if (session.failures) {
      console.error(`\n${session.failures} step(s) failed: see the summaries above.`);
      process.exitCode = 1;
    } else {
      console.log('\nDemo finished: every step succeeded.');
    }
  } finally {
    await mcp?.close();
    for (const app of ownApps) {
      app.kill();
      // A window the app opened may still hold its output pipe: stop reading it.
      app.stdout?.destroy();
    }
    await desktop?.stop();
  }
}

main().catch((error: unknown) => {
  console.error(`demo failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
