# The baseline a Python client gets: pyatspi's library (libatspi through GObject introspection)
# walking one app's tree node by node — role, states, name, screen extents, children — the way
# an accessibility script reads a tree. Its cache is cleared before each run, so every run reads
# the app rather than this process's memory.
#
#   /usr/bin/python3 pyatspi_walk.py <pid> <warmup> <runs>
# prints one JSON line: {"nodes": N, "ms": [run times]}.
import json
import sys
import time

import gi

gi.require_version('Atspi', '2.0')
from gi.repository import Atspi  # noqa: E402


def find_app(pid):
    desktop = Atspi.get_desktop(0)
    for i in range(desktop.get_child_count()):
        app = desktop.get_child_at_index(i)
        if app is not None and app.get_process_id() == pid:
            return app
    raise SystemExit(f'pid {pid} is not on the accessibility bus')


def walk(node):
    nodes = 1
    node.get_role()
    node.get_state_set()
    node.get_name()
    try:
        node.get_extents(Atspi.CoordType.SCREEN)
    except gi.repository.GLib.Error:
        pass  # the application node has no Component interface
    for i in range(node.get_child_count()):
        child = node.get_child_at_index(i)
        if child is not None:
            nodes += walk(child)
    return nodes


def main():
    pid, warmup, runs = (int(arg) for arg in sys.argv[1:4])
    app = find_app(pid)
    samples = []
    nodes = 0
    for run in range(warmup + runs):
        app.clear_cache()
        started = time.perf_counter()
        nodes = walk(app)
        if run >= warmup:
            samples.append((time.perf_counter() - started) * 1000)
    print(json.dumps({'nodes': nodes, 'ms': samples}))


main()
