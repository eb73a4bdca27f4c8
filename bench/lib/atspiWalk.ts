// The baseline Tandem's AT-SPI snapshot is compared with: a sequential per-node walk, one D-Bus
// round trip at a time (role, state, name, children, extents per node), the way a naive client
// (or pyatspi without its cache) reads a tree.

import { createProgress } from '../../src/core/progress.js';
import { AtspiBus } from '../../src/backends/linux/atspiBus.js';
import { COORD_TYPE_SCREEN, DBUS_DAEMON, IFACE, REGISTRY_BUS_NAME, ROOT_PATH, type ObjectRef } from '../../native/linux/atspiProtocol.js';

export interface WalkResult {
  nodes: number;
  elapsedMs: number;
}

/** Walks pid's whole tree node by node, sequentially. `env` gives the session bus (default: this process's). */
export async function sequentialWalk(pid: number, env: NodeJS.ProcessEnv = process.env): Promise<WalkResult> {
  const bus = await AtspiBus.connect(env);
  try {
    const progress = createProgress({ timeoutMs: 60_000 });
    const [apps] = await bus.call({ destination: REGISTRY_BUS_NAME, path: ROOT_PATH, interface: IFACE.accessible, member: 'GetChildren' }, progress, 'list apps');
    let busName: string | undefined;
    for (const [name] of apps as ObjectRef[]) {
      const [appPid] = await bus.call({ ...DBUS_DAEMON, member: 'GetConnectionUnixProcessID', signature: 's', body: [name] }, progress, 'pid');
      if (appPid === pid) busName = name;
    }
    if (!busName) throw new Error(`pid ${pid} is not on the accessibility bus`);
    const started = performance.now();
    let nodes = 0;
    const stack = [ROOT_PATH];
    while (stack.length > 0) {
      const path = stack.pop()!;
      nodes++;
      const on = (iface: string, member: string, signature?: string, body?: unknown[]): Promise<unknown[]> =>
        bus.call({ destination: busName!, path, interface: iface, member, signature, body }, progress, member).catch((): unknown[] => []);
      await on(IFACE.accessible, 'GetRole');
      await on(IFACE.accessible, 'GetState');
      await on(IFACE.properties, 'Get', 'ss', [IFACE.accessible, 'Name']);
      await on(IFACE.component, 'GetExtents', 'u', [COORD_TYPE_SCREEN]);
      const [children] = await on(IFACE.accessible, 'GetChildren');
      for (const [childBus, childPath] of ((children as ObjectRef[] | undefined) ?? []).reverse()) {
        if (childBus === busName) stack.push(childPath);
      }
    }
    return { nodes, elapsedMs: performance.now() - started };
  } finally {
    bus.close();
  }
}
