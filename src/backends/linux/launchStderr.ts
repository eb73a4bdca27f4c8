// What a started app writes to stderr, kept so that an app that exits as it starts can be
// answered with its own last words ("Running as root without --no-sandbox is not supported").
// It goes to a file that is unlinked at once, never to a pipe: the app outlives Tandem (it is
// started detached), and a pipe whose reader is gone would kill it with SIGPIPE on its next
// warning. Nothing of it reaches Tandem's stdout (MCP protocol only). Tandem reads the file only
// while the launch is being waited for, and closes its descriptor once the app showed a window or
// exited; the app's own copy of the descriptor goes with the app.

import { closeSync, fstatSync, mkdtempSync, openSync, readSync, rmdirSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** How much of the end of the file is read for the last lines. */
const TAIL_BYTES = 4_096;
/** What the answer may carry of the app's stderr, all lines together. */
export const STDERR_TAIL_CHARS = 400;
const TAIL_LINES = 5;

export interface LaunchStderr {
  /** The descriptor to hand to spawn as the child's stderr ('ignore' when no file could be made). */
  readonly fd: number | 'ignore';
  /** The last lines written so far (at most STDERR_TAIL_CHARS together); [] once closed. */
  tail(): string[];
  /** Tandem's descriptor closed (the app keeps its own). Idempotent. */
  close(): void;
}

export function openLaunchStderr(): LaunchStderr {
  let fd: number | null = null;
  try {
    const dir = mkdtempSync(join(tmpdir(), 'tandem-launch-'));
    const path = join(dir, 'stderr');
    fd = openSync(path, 'w+', 0o600);
    unlinkSync(path);
    rmdirSync(dir);
  } catch {
    // No temp file: the app's stderr is dropped as before, and an early exit is answered without it.
  }
  return {
    fd: fd ?? 'ignore',
    tail: () => (fd === null ? [] : lastLines(readEnd(fd))),
    close: () => {
      if (fd === null) return;
      try {
        closeSync(fd);
      } catch {
        // already closed
      }
      fd = null;
    },
  };
}

function readEnd(fd: number): string {
  try {
    const size = fstatSync(fd).size;
    const length = Math.min(size, TAIL_BYTES);
    const buffer = Buffer.alloc(length);
    const read = readSync(fd, buffer, 0, length, size - length);
    return buffer.subarray(0, read).toString('utf8');
  } catch {
    return '';
  }
}

/**
 * The last non-empty lines of `text`, control characters dropped and each line shortened so that
 * all together stay within STDERR_TAIL_CHARS, in the order written. A line cut short ends in "…".
 */
export function lastLines(text: string, maxChars = STDERR_TAIL_CHARS, maxLines = TAIL_LINES): string[] {
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.replace(/[\u0000-\u001f\u007f]/g, ' ').trim())
    .filter((line) => line.length > 0)
    .slice(-maxLines);
  const kept: string[] = [];
  let left = maxChars;
  for (let i = lines.length - 1; i >= 0 && left > 0; i--) {
    const line = lines[i].length > left ? `${lines[i].slice(0, Math.max(0, left - 1))}…` : lines[i];
    kept.unshift(line);
    left -= line.length;
  }
  return kept;
}
