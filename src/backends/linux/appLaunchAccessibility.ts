// What an app Tandem starts needs so that its toolkit exposes its contents on the accessibility
// bus, whatever the desktop-wide switch says (see desktopA11ySwitch.ts). Each toolkit has its own
// knob, and setting one another toolkit ignores is harmless — except Java's, which makes a JVM
// fail to start when the bridge it names is not installed, so it is only set when it is.
//
//   GTK 3/4        nothing (their bridge is always on); NO_AT_BRIDGE / NO_GAIL removed
//   Chromium,      ACCESSIBILITY_ENABLED=1 loads the bridge (the window frame registers), and
//   Electron       --force-renderer-accessibility exposes the page itself: without the flag the
//                  frame's only child is a null reference (Chromium 156, measured), since the
//                  browser turns web content on only when it finds a process named "orca"
//   Qt 5/6         QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1 (QT_ACCESSIBILITY=1 for older Qt)
//   Firefox/Gecko  GNOME_ACCESSIBILITY=1
//   Java (Swing)   JAVA_TOOL_OPTIONS += -Xbootclasspath/a:<java-atk-wrapper.jar>
//                  -Djavax.accessibility.assistive_technologies=org.GNOME.Accessibility.AtkWrapper
//                  (Debian: libatk-wrapper-java; the property alone throws "Assistive Technology
//                  not found" on Java 9+, where the jar is on no class path by default)

import { existsSync, realpathSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export const JAVA_ATK_WRAPPER_JARS = ['/usr/share/java/java-atk-wrapper.jar', '/usr/lib/java/java-atk-wrapper.jar'];
const JAVA_ATK_WRAPPER_CLASS = 'org.GNOME.Accessibility.AtkWrapper';
export const CHROMIUM_ACCESSIBILITY_FLAG = '--force-renderer-accessibility';

/** Browsers of the Chromium family known by their command name (their files are elsewhere). */
const CHROMIUM_COMMANDS = /^(chromium|chromium-browser|google-chrome(-stable|-beta|-unstable)?|chrome|brave(-browser)?|microsoft-edge(-stable|-beta|-dev)?|vivaldi(-stable)?|opera|thorium-browser)$/;
/** Files only a Chromium build (Chrome, Electron and every Electron app) ships next to its binary. */
const CHROMIUM_MARKERS = ['chrome_100_percent.pak', 'v8_context_snapshot.bin', 'snapshot_blob.bin'];

export interface LaunchFacts {
  /** Whether a file exists (tests pass a fake). */
  exists?: (path: string) => boolean;
}

/** The environment for an app Tandem starts: the session's, plus every toolkit's switch. */
export function accessibleLaunchEnv(base: NodeJS.ProcessEnv, facts: LaunchFacts = {}): NodeJS.ProcessEnv {
  const exists = facts.exists ?? existsSync;
  const env: NodeJS.ProcessEnv = {
    ...base,
    ACCESSIBILITY_ENABLED: '1',
    QT_LINUX_ACCESSIBILITY_ALWAYS_ON: '1',
    QT_ACCESSIBILITY: '1',
    GNOME_ACCESSIBILITY: '1',
  };
  // Set by people (or sessions) to silence GTK's bridge: an app Tandem opens must be readable.
  delete env.NO_AT_BRIDGE;
  delete env.NO_GAIL;
  const jar = JAVA_ATK_WRAPPER_JARS.find((path) => exists(path));
  const javaOptions = base.JAVA_TOOL_OPTIONS ?? '';
  if (jar && !javaOptions.includes('javax.accessibility.assistive_technologies')) {
    env.JAVA_TOOL_OPTIONS = [javaOptions, `-Xbootclasspath/a:${jar}`, `-Djavax.accessibility.assistive_technologies=${JAVA_ATK_WRAPPER_CLASS}`].filter(Boolean).join(' ');
  }
  return env;
}

/**
 * Whether argv starts a Chromium-based program: a browser known by name, or a binary with
 * Chromium's files beside it (Electron apps: VS Code, Slack, Discord, Obsidian…). Wrapper
 * scripts are looked through one level: the directory of the real file and its parent.
 */
export function isChromiumFamily(argv: readonly string[], facts: LaunchFacts & { realpath?: (path: string) => string } = {}): boolean {
  const program = argv[0];
  if (!program) return false;
  if (CHROMIUM_COMMANDS.test(basename(program))) return true;
  const exists = facts.exists ?? existsSync;
  const realpath = facts.realpath ?? safeRealpath;
  const real = realpath(program);
  if (CHROMIUM_COMMANDS.test(basename(real))) return true;
  const dirs = [dirname(real), dirname(dirname(real))];
  return dirs.some((dir) => CHROMIUM_MARKERS.some((marker) => exists(join(dir, marker))));
}

/** argv with Chromium's accessibility flag added where the program is Chromium-based. */
export function accessibleLaunchArgv(argv: readonly string[], facts?: Parameters<typeof isChromiumFamily>[1]): string[] {
  if (!isChromiumFamily(argv, facts) || argv.includes(CHROMIUM_ACCESSIBILITY_FLAG)) return [...argv];
  return [argv[0], CHROMIUM_ACCESSIBILITY_FLAG, ...argv.slice(1)];
}

function safeRealpath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
