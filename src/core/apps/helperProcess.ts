// A multi-process app's own helper processes are not programs an action launched. Chromium and
// every Electron app start renderer, GPU, utility and zygote processes marked `--type=<kind>`;
// Firefox starts content processes (and their fork server) marked `-contentproc`. They come
// whenever the app likes (a page loads, a pool of spare processes is refilled) and never show a
// window of their own, so waiting for one cost the whole launch cap (6 s, seen in Firefox while
// typing into a form), and naming them sent the agent after pids it can do nothing with.

/**
 * Whether a process's command line marks it as a browser's or Electron app's own helper. Words,
 * not arguments: Chromium's zygote rewrites a forked helper's arguments into one string
 * ("/usr/lib/chromium/chromium --type=renderer …"), as setproctitle does.
 */
export function isAppHelperProcess(commandLine: readonly string[] | undefined): boolean {
  return (commandLine ?? []).some((arg) => arg.split(' ').some((word) => word === '-contentproc' || word.startsWith('--type=')));
}
