// Drives the built renderer in Debian's Chromium (playwright-core, headless) with a fake
// `window.tandem` injected before any page script runs. The page is served from the Vite build
// through Playwright's request routing — no file:// origin, no TCP listener.

import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { API_EVENTS, API_METHODS } from '../../../src/shared/ipc.js';
import { repoRoot } from './repoRoot.js';

const ORIGIN = 'http://tandem.test';
const CHROMIUM = process.env.TANDEM_CHROMIUM ?? '/usr/bin/chromium';
const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

let built: Promise<string> | undefined;

/** Builds the renderer once per test process with the project's own Vite config. */
export function buildRenderer(): Promise<string> {
  built ??= (async () => {
    const { build } = await import('vite');
    const outDir = mkdtempSync(join(tmpdir(), 'tandem-renderer-'));
    process.once('exit', () => rmSync(outDir, { recursive: true, force: true }));
    await build({
      configFile: join(repoRoot(), 'vite.renderer.config.ts'),
      logLevel: 'error',
      build: { outDir, emptyOutDir: true, sourcemap: false },
    });
    return outDir;
  })();
  return built;
}

export function chromiumAvailable(): boolean {
  return existsSync(CHROMIUM);
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    // playwright-core gives each launch a fresh temporary --user-data-dir.
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** What the fake API answers, per method name of window.tandem (values are cloned per call). */
/** Per method, what the fake answers; `{ __reject: message }` makes the call fail with that message. */
export type FakeResponses = Partial<Record<keyof typeof API_METHODS, unknown>>;

export interface ViewPage {
  page: Page;
  /** Calls the page made on window.tandem, in order. */
  calls(): Promise<Array<{ method: string; request: unknown }>>;
  /** Delivers a main → renderer event (by channel, e.g. 'overlay:state'). */
  emit(channel: string, payload: unknown): Promise<void>;
  setResponse(method: keyof typeof API_METHODS, value: unknown): Promise<void>;
  screenshot(name: string, options?: { fullPage?: boolean }): Promise<string>;
}

export async function openView(
  browser: Browser,
  view: 'overlay' | 'onboarding' | 'feed',
  responses: FakeResponses,
  options: { width?: number; height?: number; colorScheme?: 'light' | 'dark'; javaScript?: boolean } = {},
): Promise<ViewPage> {
  const outDir = await buildRenderer();
  const context = await browser.newContext({
    viewport: { width: options.width ?? 760, height: options.height ?? 820 },
    colorScheme: options.colorScheme ?? 'light',
    deviceScaleFactor: 1,
    // Off: the page as it is before the bundle has run (what a window shows while it loads).
    javaScriptEnabled: options.javaScript ?? true,
  });
  const page = await context.newPage();
  await page.route(`${ORIGIN}/**`, async (route) => {
    const path = normalize(new URL(route.request().url()).pathname).replace(/^\/+/, '');
    const file = join(outDir, path || 'index.html');
    if (!file.startsWith(outDir) || !existsSync(file)) return route.fulfill({ status: 404, body: 'not found' });
    await route.fulfill({ status: 200, contentType: CONTENT_TYPES[extname(file)] ?? 'application/octet-stream', body: readFileSync(file) });
  });
  await page.addInitScript(
    ({ methods, events, responses }) => {
      const listeners = new Map<string, Set<(payload: unknown) => void>>();
      const fake = {
        calls: [] as Array<{ method: string; request: unknown }>,
        responses: responses as Record<string, unknown>,
        emit(channel: string, payload: unknown) {
          for (const listener of listeners.get(channel) ?? []) listener(payload);
        },
      };
      const api: Record<string, unknown> = {};
      for (const name of Object.keys(methods)) {
        api[name] = async (request?: unknown) => {
          fake.calls.push({ method: name, request });
          const value = fake.responses[name] as { __reject?: string } | undefined;
          // A failed invoke, as Electron reports one to the renderer.
          if (value && typeof value === 'object' && typeof value.__reject === 'string') throw new Error(value.__reject);
          return value === undefined ? undefined : structuredClone(value);
        };
      }
      for (const [name, channel] of Object.entries(events)) {
        api[name] = (listener: (payload: unknown) => void) => {
          const set = listeners.get(channel) ?? new Set();
          set.add(listener);
          listeners.set(channel, set);
          return () => set.delete(listener);
        };
      }
      Object.assign(globalThis, { tandem: Object.freeze(api), __tandemFake: fake });
    },
    { methods: API_METHODS, events: API_EVENTS, responses },
  );
  await page.goto(`${ORIGIN}/index.html?view=${view}`);
  return {
    page,
    calls: () => page.evaluate(() => (globalThis as unknown as { __tandemFake: { calls: Array<{ method: string; request: unknown }> } }).__tandemFake.calls),
    emit: (channel, payload) =>
      page.evaluate(([c, p]) => (globalThis as unknown as { __tandemFake: { emit(c: unknown, p: unknown): void } }).__tandemFake.emit(c, p), [channel, payload] as const),
    setResponse: (method, value) =>
      page.evaluate(([m, v]) => {
        (globalThis as unknown as { __tandemFake: { responses: Record<string, unknown> } }).__tandemFake.responses[m as string] = v;
      }, [method, value] as const),
    async screenshot(name, shotOptions) {
      // Under test-output/ (ignored by git) on every run; the pictures in docs/ change only on
      // purpose: TANDEM_UPDATE_DOC_SCREENSHOTS=1 npm test.
      const dir = process.env.TANDEM_UPDATE_DOC_SCREENSHOTS === '1' ? join(repoRoot(), 'docs', 'screenshots') : join(repoRoot(), 'test-output', 'screenshots');
      mkdirSync(dir, { recursive: true });
      const path = join(dir, `${name}.png`);
      await page.screenshot({ path, fullPage: shotOptions?.fullPage ?? false });
      return path;
    },
  };
}
