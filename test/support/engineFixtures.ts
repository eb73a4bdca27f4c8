// Shared fixtures for the engine's unit tests: a small desktop with a counter app, a secure
// field, a long scrollable list and a button that opens a save panel (a handoff), plus an engine
// over it that records every event and writes artifacts into a private temp folder.

import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ArtifactStore } from '../../src/core/artifacts/artifacts.js';
import { Engine, type EngineOptions } from '../../src/core/engine.js';
import type { EngineEventMap, EngineEventName } from '../../src/core/engineApi.js';
import type { ClickStep, ElementQuery, PressStep, Step, TypeStep } from '../../src/core/call/steps.js';
import { ScriptedDesktop, type ScriptedDesktopOptions, type ScriptedNodeSpec } from './scriptedDesktop.js';
import { describeStepsDone } from '../../src/mcp/renderSteps.js';

export const FINDER = 100;
export const COUNTER = 200;
export const SAVE_PANEL = 300;
export const START_CURSOR = { x: 5, y: 5 };

export function listItems(count: number): ScriptedNodeSpec[] {
  return Array.from({ length: count }, (_, i) => ({
    role: 'ListItem',
    text: `Item ${i}`,
    bounds: { x: 220, y: 10 + 20 * i, width: 150, height: 20 },
  }));
}

export function counterTree(): ScriptedNodeSpec {
  return {
    role: 'Application',
    text: 'Counter',
    children: [
      {
        role: 'Window',
        text: 'Counter',
        bounds: { x: 0, y: 0, width: 400, height: 300 },
        children: [
          {
            role: 'PushButton',
            text: 'Count: 0',
            bounds: { x: 10, y: 10, width: 100, height: 30 },
            onClick: ({ node }) => node.setText(`Count: ${Number(node.text.split(' ')[1]) + 1}`),
          },
          {
            role: 'PushButton',
            text: 'Save…',
            bounds: { x: 10, y: 50, width: 100, height: 30 },
            onClick: ({ desktop }) => {
              desktop.startApp(
                {
                  pid: SAVE_PANEL,
                  name: 'Save Panel',
                  tree: {
                    role: 'Application',
                    text: 'Save Panel',
                    children: [{ role: 'Dialog', text: 'Save As', bounds: { x: 50, y: 50, width: 300, height: 200 }, children: [{ role: 'PushButton', text: 'Save', bounds: { x: 60, y: 200, width: 80, height: 30 } }] }],
                  },
                },
                { frontmost: true },
              );
            },
          },
          { role: 'Text', text: 'Name', bounds: { x: 10, y: 90, width: 200, height: 30 } },
          { role: 'PasswordText', secure: true, identity: 'password-field', bounds: { x: 10, y: 130, width: 200, height: 30 } },
          { role: 'Label', text: 'Status: idle', bounds: { x: 10, y: 170, width: 200, height: 20 } },
          {
            role: 'List',
            text: 'Items',
            scrollable: { lineHeight: 20 },
            bounds: { x: 220, y: 10, width: 150, height: 100 },
            children: listItems(100),
          },
        ],
      },
    ],
  };
}

export function counterDesktop(options: Partial<ScriptedDesktopOptions> = {}): ScriptedDesktop {
  return new ScriptedDesktop({
    apps: [
      { pid: FINDER, name: 'Finder', tree: { role: 'Application', text: 'Finder', children: [{ role: 'Window', text: 'Desktop', bounds: { x: 0, y: 0, width: 1280, height: 800 }, children: [{ role: 'Image', text: 'Macintosh HD', bounds: { x: 1180, y: 20, width: 64, height: 64 } }] }] } },
      { pid: COUNTER, name: 'Counter', tree: counterTree() },
    ],
    frontmostPid: FINDER,
    cursor: START_CURSOR,
    ...options,
  });
}

export interface RecordedEvent {
  event: EngineEventName;
  payload: EngineEventMap[EngineEventName];
}

export interface EngineFixture {
  engine: Engine;
  desktop: ScriptedDesktop;
  events: RecordedEvent[];
  artifactsDir: string;
  /** Every artifact file's content, concatenated (text decoded as UTF-8). */
  artifactText(): Promise<string>;
  cleanup(): Promise<void>;
}

export async function engineFixture(desktop: ScriptedDesktop = counterDesktop(), options: Partial<EngineOptions> = {}): Promise<EngineFixture> {
  const artifactsDir = await mkdtemp(path.join(os.tmpdir(), 'tandem-engine-test-'));
  const store = await ArtifactStore.open({ dir: artifactsDir });
  // No grace period by default: most tests look at the guard right after the call returns (the
  // grace period outliving the call has tests of its own).
  const engine = new Engine(desktop, { artifacts: store, graceMs: 0, settle: { quietMs: 0, capMs: 0, fallbackMs: 0 }, describeSteps: describeStepsDone, ...options });
  const events: RecordedEvent[] = [];
  const names: EngineEventName[] = ['call-started', 'guard-engaged', 'guard-released', 'step', 'call-finished', 'log'];
  for (const event of names) engine.on(event, (payload) => events.push({ event, payload }));
  return {
    engine,
    desktop,
    events,
    artifactsDir,
    async artifactText() {
      const names = (await readdir(artifactsDir)).sort();
      const texts = await Promise.all(names.map((name) => readFile(path.join(artifactsDir, name), 'utf8')));
      return texts.join('\n');
    },
    async cleanup() {
      await engine.close();
      await rm(artifactsDir, { recursive: true, force: true });
    },
  };
}

/** Names of the guard/step events in order, e.g. ['guard-engaged', 'step', 'guard-released']. */
export function eventNames(events: RecordedEvent[], ...only: EngineEventName[]): EngineEventName[] {
  return events.map((e) => e.event).filter((name) => only.length === 0 || only.includes(name));
}

// — step builders —


export function clickOn(query: ElementQuery | string): ClickStep {
  return { kind: 'click', target: { query: typeof query === 'string' ? { text: query } : query }, button: 'left', count: 1, modifiers: [] };
}

export function clickAt(x: number, y: number): ClickStep {
  return { kind: 'click', target: { point: { x, y } }, button: 'left', count: 1, modifiers: [] };
}

export function typeText(text: string): TypeStep {
  return { kind: 'type', text };
}

export function press(key: string, modifiers: string[] = []): PressStep {
  return { kind: 'press', key, modifiers: modifiers as PressStep['modifiers'] };
}

export function act(pid: number, ...steps: Step[]): { tool: string; pid: number; steps: Step[] } {
  return { tool: 'act', pid, steps };
}
