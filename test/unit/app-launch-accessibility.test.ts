// What an app Tandem starts gets for its toolkit's accessibility (appLaunchAccessibility.ts):
// every toolkit's switch in the environment, Java's only where its bridge is installed, and
// Chromium's page flag only for Chromium-based programs. (Proven on the real apps in
// test/e2e/apps-*.test.ts; Java checked by hand, see README.)
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CHROMIUM_ACCESSIBILITY_FLAG, accessibleLaunchArgv, accessibleLaunchEnv, isChromiumFamily } from '../../src/backends/linux/appLaunchAccessibility.js';

const JAR = '/usr/share/java/java-atk-wrapper.jar';

describe('accessibility for the apps Tandem starts', () => {
  it('should switch every toolkit on and take GTK’s off-switches away', () => {
    const env = accessibleLaunchEnv({ PATH: '/usr/bin', NO_AT_BRIDGE: '1', NO_GAIL: '1' }, { exists: () => false });
    assert.equal(env.PATH, '/usr/bin');
    assert.equal(env.ACCESSIBILITY_ENABLED, '1');
    assert.equal(env.QT_LINUX_ACCESSIBILITY_ALWAYS_ON, '1');
    assert.equal(env.QT_ACCESSIBILITY, '1');
    assert.equal(env.GNOME_ACCESSIBILITY, '1');
    assert.equal(env.NO_AT_BRIDGE, undefined);
    assert.equal(env.NO_GAIL, undefined);
    assert.equal(env.JAVA_TOOL_OPTIONS, undefined, 'no Java bridge installed: a JVM told to load it would not start');
  });

  it('should give Java the ATK bridge only where it is installed, after the options already set', () => {
    const env = accessibleLaunchEnv({ JAVA_TOOL_OPTIONS: '-Xmx512m' }, { exists: (path) => path === JAR });
    assert.equal(env.JAVA_TOOL_OPTIONS, `-Xmx512m -Xbootclasspath/a:${JAR} -Djavax.accessibility.assistive_technologies=org.GNOME.Accessibility.AtkWrapper`);
    const chosen = accessibleLaunchEnv({ JAVA_TOOL_OPTIONS: '-Djavax.accessibility.assistive_technologies=com.example.Reader' }, { exists: () => true });
    assert.equal(chosen.JAVA_TOOL_OPTIONS, '-Djavax.accessibility.assistive_technologies=com.example.Reader', 'a person’s own choice is kept');
  });

  it('should know Chromium-based programs by name or by the files beside them', () => {
    const none = { exists: () => false, realpath: (path: string) => path };
    assert.equal(isChromiumFamily(['/usr/bin/chromium', '%U'], none), true);
    assert.equal(isChromiumFamily(['/usr/bin/google-chrome-stable'], none), true);
    assert.equal(isChromiumFamily(['/usr/bin/mousepad'], none), false);
    // VS Code: /usr/bin/code → /usr/share/code/bin/code (a script); Chromium's files in /usr/share/code.
    const vscode = { realpath: (path: string) => (path === '/usr/bin/code' ? '/usr/share/code/bin/code' : path), exists: (path: string) => path === '/usr/share/code/chrome_100_percent.pak' };
    assert.equal(isChromiumFamily(['/usr/bin/code'], vscode), true);
    // Slack: the binary sits with its files.
    const slack = { realpath: () => '/usr/lib/slack/slack', exists: (path: string) => path === '/usr/lib/slack/v8_context_snapshot.bin' };
    assert.equal(isChromiumFamily(['/usr/bin/slack'], slack), true);
  });

  it('should add the page flag once, right after the program', () => {
    const none = { exists: () => false, realpath: (path: string) => path };
    assert.deepEqual(accessibleLaunchArgv(['/usr/bin/chromium', '--incognito', 'https://example.org'], none), ['/usr/bin/chromium', CHROMIUM_ACCESSIBILITY_FLAG, '--incognito', 'https://example.org']);
    assert.deepEqual(accessibleLaunchArgv(['/usr/bin/chromium', CHROMIUM_ACCESSIBILITY_FLAG], none), ['/usr/bin/chromium', CHROMIUM_ACCESSIBILITY_FLAG]);
    assert.deepEqual(accessibleLaunchArgv(['/usr/bin/mousepad', 'notes.txt'], none), ['/usr/bin/mousepad', 'notes.txt'], 'other programs get no unknown flag');
  });
});
