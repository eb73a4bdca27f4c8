// What the model reads when an app shows windows but exposes nothing to read (core's
// 'not-accessible' facts, see core/apps/readability.ts): exactly why, and the one way out, which is a
// restart the person must agree to.

import type { UnreadableApp } from '../core/apps/readability.js';
import { quoteText } from '../core/tree/treeFormat.js';

const MAX_TITLES = 3;

function windowList(windows: readonly string[]): string {
  const shown = windows.slice(0, MAX_TITLES).map((title) => quoteText(title, '"', 60));
  const more = windows.length > shown.length ? ` and ${windows.length - shown.length} more` : '';
  return `${windows.length} window${windows.length === 1 ? '' : 's'} (${shown.join(', ')}${more})`;
}

function isChromium(toolkit: string | undefined): boolean {
  return /chrom|electron/i.test(toolkit ?? '');
}

/** The facts back from an error's details; null when they are not an UnreadableApp. */
export function unreadableFrom(details: Record<string, unknown> | undefined): UnreadableApp | null {
  if (!details || (details.reason !== 'not-registered' && details.reason !== 'no-content') || typeof details.pid !== 'number') return null;
  const windows = Array.isArray(details.windows) ? details.windows.map(String) : [];
  return {
    reason: details.reason,
    pid: details.pid,
    windows,
    ...(typeof details.app === 'string' ? { app: details.app } : {}),
    ...(typeof details.toolkit === 'string' ? { toolkit: details.toolkit } : {}),
  };
}

export function notAccessibleMessage(facts: UnreadableApp): string {
  if (facts.reason === 'not-registered') {
    return (
      `pid ${facts.pid} shows ${windowList(facts.windows)} but is not on the accessibility bus, so nothing in it can be read or targeted. ` +
      'Apps join the bus when they start: this one was started before desktop accessibility was on (Chromium, Electron apps and Firefox check only at start), or with its accessibility turned off.'
    );
  }
  const who = [facts.app, facts.toolkit].filter(Boolean).join(', ');
  const why = isChromium(facts.toolkit)
    ? ' Chromium and Electron apps expose their pages only when started with --force-renderer-accessibility.'
    : ' It was most likely started before desktop accessibility was on.';
  return `pid ${facts.pid}${who ? ` (${who})` : ''} is on the accessibility bus but exposes nothing inside its ${windowList(facts.windows)}, so nothing in it can be read or targeted.${why}`;
}

export function notAccessibleHint(facts: UnreadableApp): string {
  const flags = facts.reason === 'no-content' && isChromium(facts.toolkit) ? ' with --force-renderer-accessibility' : ' with accessibility on';
  return (
    'Restarting the app is the only fix: ask the person first (unsaved work would be lost). Once they agree and have quit it, ' +
    `call open_application_and_traverse with the app's name: Tandem starts it${flags}. Apps the person starts while Tandem runs are readable too.`
  );
}
