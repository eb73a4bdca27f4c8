// What `tandem mcp` starts when no host answers: the app through LaunchServices on macOS (so
// macOS holds the app, not the MCP client, responsible for permissions), the app binary on
// Linux, `tandem serve` from a source checkout.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BUNDLE_ID, planAppStart } from '../../src/launcher/socket/appStart.js';

const base = { execPath: '/usr/bin/node', cliPath: '/src/dist/src/launcher/cli.js' };

describe('launcher: starting the app', () => {
  it('should ask LaunchServices for the app when running inside the macOS bundle', () => {
    const plan = planAppStart({ ...base, platform: 'darwin', env: { ELECTRON_RUN_AS_NODE: '1' }, electronVersion: '45.4.1', execPath: '/Applications/Tandem.app/Contents/MacOS/Tandem' });
    assert.deepEqual(plan.map(({ command, args, mode }) => ({ command, args, mode })), [{ command: 'open', args: ['-g', '-b', BUNDLE_ID], mode: 'exit' }]);
    assert.equal(plan[0].env.ELECTRON_RUN_AS_NODE, undefined, 'the app must not start in node mode');
  });

  it('should start the app binary itself, as an app, inside the Linux package', () => {
    const plan = planAppStart({ ...base, platform: 'linux', env: { ELECTRON_RUN_AS_NODE: '1', HOME: '/home/ann' }, electronVersion: '45.4.1', execPath: '/opt/Tandem/tandem' });
    assert.deepEqual(plan.map(({ command, args, mode }) => ({ command, args, mode })), [{ command: '/opt/Tandem/tandem', args: [], mode: 'detach' }]);
    assert.deepEqual(plan[0].env, { HOME: '/home/ann' });
  });

  it('should fall back to the headless host from a source checkout', () => {
    const linux = planAppStart({ ...base, platform: 'linux', env: {} });
    assert.deepEqual(linux.map(({ command, args }) => [command, ...args]), [['/usr/bin/node', '/src/dist/src/launcher/cli.js', 'serve']]);
    const mac = planAppStart({ ...base, platform: 'darwin', env: {} });
    assert.deepEqual(mac.map(({ command }) => command), ['open', '/usr/bin/node'], 'the installed app first, then tandem serve');
  });

  it('should let TANDEM_APP_COMMAND decide', () => {
    const plan = planAppStart({ ...base, platform: 'linux', env: { TANDEM_APP_COMMAND: 'tandem serve --flag' } });
    assert.deepEqual(plan.map(({ command, args }) => [command, ...args]), [['/bin/sh', '-c', 'tandem serve --flag']]);
  });
});
