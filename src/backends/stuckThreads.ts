// A thread that stopped answering (the macOS guard's tap thread, cgEventTapHost.ts) cannot be
// ended from JavaScript, and Node's exit joins every worker thread: process.exit() or Electron's
// quit would then wait on it for ever. A backend that gives up on such a thread says so here,
// and the exit paths (src/launcher/cli.ts, the app's quit in src/main/tandemApp.ts) end the
// process with SIGKILL instead, which joins nothing. No native code: importing this loads no
// backend.

/** One entry per thread left stuck (two threads may be stuck for the same reason). */
const stuck = new Map<symbol, string>();

/**
 * A thread of this process stopped answering and was left running: exiting normally could hang.
 * The returned function says that thread ended after all (it was only slow).
 */
export function noteStuckThread(reason: string): () => void {
  const entry = Symbol(reason);
  stuck.set(entry, reason);
  return () => void stuck.delete(entry);
}

/** Every thread left stuck, by reason (tests, diagnostics). */
export function stuckThreads(): string[] {
  return [...stuck.values()];
}

/** Why exiting normally could hang (a thread was left stuck), or null. */
export function stuckThread(): string | null {
  for (const reason of stuck.values()) return reason;
  return null;
}

export interface ProcessEnd {
  stdout: { write(chunk: string, done: () => void): unknown };
  /** Drained too before a SIGKILL, so the line that says why is not lost. */
  stderr?: { write(chunk: string, done: () => void): unknown };
  exit(code: number): void;
  kill(pid: number, signal: NodeJS.Signals): void;
  pid: number;
  log(message: string): void;
}

const realProcess = (): ProcessEnd => ({
  stdout: process.stdout,
  stderr: process.stderr,
  exit: (code) => process.exit(code),
  kill: (pid, signal) => process.kill(pid, signal),
  pid: process.pid,
  log: (message) => console.error(`[tandem] ${message}`),
});

/**
 * Ends the process with `code` once stdout has drained (pipes are asynchronous on macOS): with
 * process.exit() normally, with SIGKILL when a thread was left stuck (the exit code is then the
 * signal's; an MCP client sees the server end either way).
 */
export function endProcess(code: number, end: ProcessEnd = realProcess()): void {
  end.stdout.write('', () => { // stdout-ok: an empty write, only to drain
    const reason = stuckThread();
    if (reason === null) return end.exit(code);
    end.log(`a thread was left stuck (${reason}): ending with SIGKILL, since a normal exit would wait for it`);
    if (!end.stderr) return end.kill(end.pid, 'SIGKILL');
    end.stderr.write('', () => end.kill(end.pid, 'SIGKILL'));
  });
}
