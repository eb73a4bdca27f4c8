// Real apps beyond GTK for the compatibility matrix (test/e2e/apps-*.test.ts) and the bench: a loopback web
// server with a form whose submissions are the oracle of what a browser really sent, and
// .desktop entries that start Chromium, Firefox ESR and LibreOffice Writer the way a launcher
// would — through open_application_and_traverse — with only the flags a root test machine needs
// (sandbox off, a fresh profile, no first-run pages or network). Tandem adds its own
// accessibility environment and flags on top; nothing here turns accessibility on.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { VirtualDesktop } from './virtualDesktop.js';

// — the web form —

export interface Submission {
  path: string;
  fields: Record<string, string>;
}

export interface FormServer {
  /** http://127.0.0.1:<port> */
  readonly origin: string;
  readonly submissions: Submission[];
  waitForSubmission(matches: (submission: Submission) => boolean, timeoutMs?: number): Promise<Submission>;
  close(): Promise<void>;
}

/** The courier form: two labelled text fields, a select, a checkbox, a submit button, and a button that opens an alert. */
export const FORM_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Courier booking</title>
<style>body{font:16px sans-serif;margin:24px} label,input,select,button{margin:6px}</style></head>
<body>
<h1>Courier booking</h1>
<form method="post" action="/submit">
  <div><label for="name">Recipient name</label><input id="name" name="name" type="text" autocomplete="off"></div>
  <div><label for="note">Courier note</label><input id="note" name="note" type="text" autocomplete="off"></div>
  <div><label for="speed">Speed</label><select id="speed" name="speed"><option>Standard</option><option>Express</option><option>Overnight</option></select></div>
  <div><label><input id="fragile" name="fragile" type="checkbox" value="yes"> Fragile</label></div>
  <div><button type="submit">Book courier</button>
  <button type="button" onclick="alert('Courier preview for ' + (document.getElementById('name').value || 'nobody'))">Preview booking</button></div>
</form>
<p role="status" id="status">Nothing booked yet</p>
</body></html>`;

/** A long article (thousands of accessible nodes) for the large-tree bench rows. */
export function longPage(paragraphs: number): string {
  const rows = Array.from({ length: paragraphs }, (_, i) => `<p>Paragraph ${i + 1}: <a href="#p${i + 1}">link ${i + 1}</a> and <b>some</b> <i>inline</i> text.</p>`);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Long page</title></head><body><h1>Long page</h1>${rows.join('')}</body></html>`;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => resolve(body));
    request.on('error', reject);
  });
}

/** Serves FORM_PAGE at /form and longPage(n) at /long?n=…, on loopback only; records every POST. */
export async function startFormServer(): Promise<FormServer> {
  const submissions: Submission[] = [];
  const waiters = new Set<() => void>();
  const server: Server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      if (request.method === 'POST') {
        const fields = Object.fromEntries(new URLSearchParams(await readBody(request)));
        submissions.push({ path: url.pathname, fields });
        for (const wake of waiters) wake();
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        response.end(`<!doctype html><html><head><title>Booked</title></head><body><h1>Booked for ${escapeHtml(fields.name ?? '')}</h1></body></html>`);
        return;
      }
      const page = url.pathname === '/long' ? longPage(Math.min(20_000, Number(url.searchParams.get('n') ?? 1000))) : url.pathname === '/form' ? FORM_PAGE : null;
      response.writeHead(page ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
      response.end(page ?? 'not found');
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    submissions,
    waitForSubmission(matches, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = (): boolean => {
          const found = submissions.find(matches);
          if (!found) return false;
          cleanup();
          resolve(found);
          return true;
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`No matching submission within ${timeoutMs} ms: ${JSON.stringify(submissions)}`));
        }, timeoutMs);
        const cleanup = (): void => {
          clearTimeout(timer);
          waiters.delete(wake);
        };
        const wake = (): void => void check();
        if (!check()) waiters.add(wake);
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[char] ?? char);
}

// — desktop entries, as a person's launcher would have them —

/** Writes <XDG_DATA_HOME>/applications/<id>.desktop and returns the identifier to open it by. */
export function installDesktopEntry(desktop: VirtualDesktop, id: string, name: string, argv: string[]): string {
  const dir = join(desktop.env.XDG_DATA_HOME!, 'applications');
  mkdirSync(dir, { recursive: true });
  const exec = argv.map((word) => (/[\s"'\\$`]/.test(word) ? `"${word.replace(/(["`$\\])/g, '\\$1')}"` : word)).join(' ');
  writeFileSync(join(dir, `${id}.desktop`), `[Desktop Entry]\nType=Application\nName=${name}\nExec=${exec}\nTerminal=false\n`);
  return id;
}

/**
 * Debian's Chromium as root on a test machine: no sandbox (it refuses to start as root with one),
 * a fresh profile, no first-run, sync, component updates or background requests (the network is
 * closed), and the info bar about the sandbox flag hidden (--test-type). Nothing about accessibility.
 */
export function chromiumEntry(desktop: VirtualDesktop, url: string): string {
  return installDesktopEntry(desktop, 'tandem-test-chromium', 'Test Chromium', chromiumArgv(desktop, url));
}

/** The command line of chromiumEntry, for a test that starts Chromium itself (not through Tandem). */
export function chromiumArgv(desktop: VirtualDesktop, url: string): string[] {
  const profile = mkdtempSync(join(desktop.root, 'chromium-'));
  return [
    '/usr/bin/chromium',
    '--no-sandbox',
    '--test-type',
    '--no-first-run',
    '--no-default-browser-check',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-gpu',
    '--password-store=basic',
    `--user-data-dir=${profile}`,
    '--window-position=0,0',
    '--window-size=1200,760',
    url,
  ];
}

/** Preferences of a fresh Firefox profile that would otherwise open welcome pages or reach the network. */
const FIREFOX_PREFS: Record<string, string | number | boolean> = {
  'browser.aboutwelcome.enabled': false,
  'browser.startup.homepage_override.mstone': 'ignore',
  'browser.shell.checkDefaultBrowser': false,
  'datareporting.policy.dataSubmissionEnabled': false,
  'datareporting.policy.firstRunURL': '',
  'toolkit.telemetry.reportingpolicy.firstRun': false,
  'browser.tabs.warnOnClose': false,
  'app.update.enabled': false,
  'extensions.update.enabled': false,
  'browser.newtabpage.enabled': false,
  'browser.startup.page': 0,
  'network.captive-portal-service.enabled': false,
  'network.connectivity-service.enabled': false,
  'browser.safebrowsing.malware.enabled': false,
  'browser.safebrowsing.phishing.enabled': false,
  'signon.rememberSignons': false,
  'dom.disable_beforeunload': true,
};

/** Firefox ESR in a fresh profile of its own (no remote: it never hands over to another instance). */
export function firefoxEntry(desktop: VirtualDesktop, url: string): string {
  return installDesktopEntry(desktop, 'tandem-test-firefox', 'Test Firefox', firefoxArgv(desktop, url));
}

/** The command line of firefoxEntry, for a test that starts Firefox itself (not through Tandem). */
export function firefoxArgv(desktop: VirtualDesktop, url: string): string[] {
  const profile = mkdtempSync(join(desktop.root, 'firefox-'));
  const prefs = Object.entries(FIREFOX_PREFS).map(([key, value]) => `user_pref(${JSON.stringify(key)}, ${JSON.stringify(value)});`);
  writeFileSync(join(profile, 'user.js'), `${prefs.join('\n')}\n`);
  return ['/usr/bin/firefox-esr', '--no-remote', '--profile', profile, '--width', '1200', '--height', '760', url];
}

/**
 * LibreOffice Writer with a fresh user profile that has its first-start dialogs (tip of the day,
 * what's new) turned off, no document recovery and no splash.
 */
export function writerEntry(desktop: VirtualDesktop): string {
  return installDesktopEntry(desktop, 'tandem-test-writer', 'Test Writer', writerArgv(desktop));
}

/** The command line of writerEntry, for a bench that starts Writer itself. */
export function writerArgv(desktop: VirtualDesktop): string[] {
  const profile = mkdtempSync(join(desktop.root, 'libreoffice-'));
  const user = join(profile, 'user');
  mkdirSync(user, { recursive: true });
  const item = (path: string, prop: string, value: string): string =>
    `<item oor:path="${path}"><prop oor:name="${prop}" oor:op="fuse"><value>${value}</value></prop></item>`;
  writeFileSync(
    join(user, 'registrymodifications.xcu'),
    `<?xml version="1.0" encoding="UTF-8"?>\n<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\n` +
      [
        item('/org.openoffice.Office.Common/Misc', 'ShowTipOfTheDay', 'false'),
        item('/org.openoffice.Office.Common/Misc', 'FirstRun', 'false'),
        item('/org.openoffice.Setup/Product', 'ooSetupLastVersion', '99.0'),
        item('/org.openoffice.Setup/Office', 'ooSetupInstCompleted', 'true'),
        item('/org.openoffice.Office.Recovery/RecoveryInfo', 'Enabled', 'false'),
        item('/org.openoffice.Office.Common/Save/Document', 'WarnAlienFormat', 'false'),
      ].join('\n') +
      '\n</oor:items>\n',
  );
  return ['/usr/bin/libreoffice', `-env:UserInstallation=file://${profile}`, '--writer', '--norestore', '--nologo'];
}
