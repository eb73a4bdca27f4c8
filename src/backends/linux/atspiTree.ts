// Snapshot of one app's accessibility tree: the whole app in one Cache.GetItems call, a live
// look only where the cache is known to be incomplete (containers that manage descendants,
// children the cache misplaces), then one parallel pass for geometry, actions and text.
// A per-node walk costs ~1 ms per node; the cache ~4 ms for a whole app.

import type { SnapshotLimits } from '../../core/desktop.js';
import type { ElementNode, Point, Rect, TreeSnapshot } from '../../core/model.js';
import type { Progress } from '../../core/progress.js';
import { isTandemError } from '../../core/errors.js';
import { LIMITS } from '../../core/limits.js';
import { firstCharacters } from '../../core/tree/treeFormat.js';
import { readableName } from '../../core/tree/readableName.js';
import { CACHE_PATH, COORD_TYPE_SCREEN, IFACE, NULL_PATH, OFFSCREEN_COORDINATE, type CacheItem, type ObjectRef } from '../../../native/linux/atspiProtocol.js';
import { ROLE, isButtonLikeRole, isNumericValueRole, isTextRole, isToggleRole, isValueTextRole, roleName, toPascalRole } from '../../../native/linux/atspiRoles.js';
import { STATE, hasState } from '../../../native/linux/atspiStates.js';
import type { AtspiApp } from './atspiApps.js';
import type { AtspiBus } from './atspiBus.js';
import { atspiIdentity, type AtspiHandle } from './atspiHandle.js';
import { AtspiToolkits, isGetAllUnsafeToolkit, isWindowRelativeToolkit, type Toolkit } from './atspiToolkit.js';
import { AtspiObjectMemo } from './atspiObjectMemo.js';
import { readActionNames } from './atspiActionNames.js';
import { EMBED_READ_MS, MAX_EMBED_DEPTH, MAX_EMBEDS, isForeignRef, socketSuspects, uniqueBusName, type EmbedRef } from './atspiEmbeds.js';
import {
  adoptShowingOrphans,
  applyLiveChildren,
  assembleCacheTree,
  childrenNeed,
  flattenTree,
  isShowing,
  syntheticRoot,
  type FlatNode,
  type RawNode,
  type RawTree,
} from './atspiTreeModel.js';

/** Longest text read from a Text interface (the tree line cuts shorter anyway). */
export const TEXT_READ_CAP = 2000;
/** A field's value is read whole up to this many characters (the longest text one call types). */
export const VALUE_READ_CAP = LIMITS.readValueChars;
/**
 * Children read live under one container whose children the cache lacks (GTK3 tree/list rows,
 * a browser document's blocks): beyond it, the ones on screen and around them (pickChildren).
 * Measured: 1,000 paragraphs of a page read in ~180 ms (Chromium, Firefox).
 */
export const MANAGED_CHILDREN_CAP = 1000;
/** Nodes fetched one by one in a whole snapshot (walks of uncached subtrees). */
export const LIVE_NODES_CAP = 4000;

export type WindowOriginLookup = (pid: number, windowTitle: string) => Promise<Point | null>;

/** What never changes for one object: its role and its interfaces. */
interface FixedFacts {
  role: number;
  interfaces: string[];
}

/** Truncation bookkeeping shared by the passes of one snapshot. */
class Budget {
  timedOut = false;
  liveNodes = 0;
  liveCapped = false;
  /** Embedded processes (their bus names) that did not answer in time: their part is missing. */
  embedsLost = 0;
  /** Children on other bus connections met while reading this tree (atspiEmbeds). */
  readonly foreign: EmbedRef[] = [];
  constructor(
    readonly progress: Progress,
    /** Details asked for before the tree was complete, awaited if the node survives the caps. */
    readonly early = new Map<RawNode, Promise<NodeDetails>>(),
    /** The app and each embedded process read, by bus name: a node is read through its own. */
    readonly sources = new Map<string, AtspiApp>(),
    /** Bus names of the embedded processes read (atspiActionNames: their actions are read apart). */
    readonly embeddedBuses = new Set<string>(),
  ) {}

  /** The budget of one embedded tree: its own, shorter deadline, so a frozen embed costs only its part. */
  forEmbed(): Budget {
    const deadline = Math.min(this.progress.deadline, Date.now() + EMBED_READ_MS);
    return new Budget({ ...this.progress, deadline }, this.early, this.sources, this.embeddedBuses);
  }

  /** What an embedded tree's read spent, once it is grafted. */
  absorb(embed: Budget): void {
    this.liveNodes += embed.liveNodes;
    this.liveCapped ||= embed.liveCapped;
    this.embedsLost += embed.embedsLost + (embed.timedOut ? 1 : 0);
  }

  startDetails(node: RawNode, read: () => Promise<NodeDetails>): void {
    const pending = read();
    // A cancel must not surface as an unhandled rejection for a node the caps then drop.
    pending.catch(() => {});
    this.early.set(node, pending);
  }

  noteError(error: unknown): void {
    if (isTandemError(error, 'timeout')) this.timedOut = true;
    else if (isTandemError(error, 'cancelled')) throw error;
    else if (this.progress.signal.aborted) throw error;
  }

  expired(): boolean {
    if (Date.now() >= this.progress.deadline) this.timedOut = true;
    return this.timedOut;
  }
}

export class AtspiTree {
  private readonly bus: AtspiBus;
  private readonly windowOrigin?: WindowOriginLookup;
  /** Apps (bus names) whose toolkit sets "showing" on windows only (GTK 4.8): see markShowingWhenVisible. */
  private readonly showingFromVisible = new Set<string>();
  /** Role and interfaces of nodes read live: a later snapshot asks only for what can change, states and properties. */
  private readonly fixedFacts = new AtspiObjectMemo<FixedFacts>();
  /** Action names of elements seen offering some (see detailsOf). */
  private readonly actionsOffered = new AtspiObjectMemo<string[]>();

  private readonly toolkits: AtspiToolkits;

  constructor(bus: AtspiBus, windowOrigin?: WindowOriginLookup, toolkits: AtspiToolkits = new AtspiToolkits(bus)) {
    this.bus = bus;
    this.windowOrigin = windowOrigin;
    this.toolkits = toolkits;
  }

  async snapshot(app: AtspiApp, limits: SnapshotLimits, progress: Progress): Promise<TreeSnapshot> {
    const started = Date.now();
    const budget = new Budget({ signal: progress.signal, log: progress.log, deadline: Math.min(progress.deadline, started + limits.maxMs) });
    // Geometry of cached nodes is fetched while the cache's gaps are filled (one round trip
    // less), unless the count cap would leave most of them out anyway.
    const tree = await this.fetchTree(app, budget, (cached, source) => {
      const showing = [...cached.byPath.values()].filter(isShowing);
      if (showing.length > limits.maxElements) return;
      for (const node of showing) budget.startDetails(node, () => this.detailsOf(source, node, budget));
    });
    const flat = flattenTree(tree.root, limits.maxDepth, limits.maxElements);
    const details = await this.fetchDetails(app, flat.nodes, budget);
    const elements = flat.nodes.map((entry) => toElement(entry.node.busName ?? app.busName, entry, details.get(entry.node), flat.nodes));
    let truncated: TreeSnapshot['truncated'] = flat.truncated;
    if (budget.timedOut) {
      const detail = tree.root.children.length === 0 && elements.length <= 1
        ? `${app.name} did not answer within ${Date.now() - started} ms (it may be frozen or busy)`
        : `stopped after ${Date.now() - started} ms: part of the tree or its geometry is missing`;
      truncated = { reason: 'time', detail };
    } else if (!truncated && budget.liveCapped) {
      truncated = { reason: 'count', detail: `uncached subtrees cut at ${MANAGED_CHILDREN_CAP} children per list and ${LIVE_NODES_CAP} live nodes` };
    } else if (!truncated && budget.embedsLost > 0) {
      truncated = { reason: 'time', detail: `${budget.embedsLost} embedded part(s) drawn by another process did not answer within ${EMBED_READ_MS} ms: their content is missing` };
    }
    // Known by now for every app whose cache was read (one Get per app, remembered).
    const toolkit = budget.timedOut ? undefined : await this.toolkitOf(app, budget);
    const toolkitName = toolkit?.name ? `${toolkit.name}${toolkit.version ? ` ${toolkit.version}` : ''}` : undefined;
    return { pid: app.pid, app: app.name, elements, ...(truncated ? { truncated } : {}), elapsedMs: Date.now() - started, ...(toolkitName ? { toolkit: toolkitName } : {}) };
  }

  // — structure —

  private async fetchTree(
    app: AtspiApp,
    budget: Budget,
    onCached: (tree: RawTree, source: AtspiApp) => void,
    embedDepth = 0,
    busesRead = new Set([app.busName]),
  ): Promise<RawTree> {
    budget.sources.set(app.busName, app);
    const empty = (): RawTree => ({ root: syntheticRoot(app.rootPath, app.name), byPath: new Map(), orphans: [] });
    try {
      // The cache object only exists once some client registered for an event.
      await this.bus.registerEvent('object:children-changed', budget.progress);
    } catch (error) {
      budget.noteError(error);
      if (budget.timedOut) return empty();
    }
    let items: CacheItem[] | null = null;
    try {
      const [body] = await this.bus.call(
        { destination: app.busName, path: CACHE_PATH, interface: IFACE.cache, member: 'GetItems' },
        budget.progress,
        `read the accessibility tree of ${app.name}`,
      );
      items = body as CacheItem[];
    } catch (error) {
      if (isTandemError(error, 'app-gone')) throw error;
      budget.noteError(error);
      if (budget.timedOut) return empty();
      // No cache (toolkits without one): fall back to a live walk from the root.
    }
    // Qt publishes the cache object but never fills it (Qt 5.15: GetItems answers []): walk live.
    if (items === null || !items.some((item) => item[0][0] === app.busName || item[0][0] === '')) {
      const root = syntheticRoot(app.rootPath, app.name);
      const tree: RawTree = { root, byPath: new Map([[root.path, root]]), orphans: [] };
      await this.walkChildren(app, tree, [root], budget, LIVE_NODES_CAP);
      await this.followEmbeds(app, tree, budget, onCached, embedDepth, busesRead);
      return tree;
    }
    const tree = assembleCacheTree(items, app.busName, app.rootPath, app.name);
    if (isWindowRelativeToolkit(await this.toolkitOf(app, budget))) {
      this.showingFromVisible.add(app.busName);
      for (const node of tree.byPath.values()) markShowingWhenVisible(node);
    }
    onCached(tree, app);
    await this.reconcile(app, tree, budget);
    adoptShowingOrphans(tree);
    await this.followEmbeds(app, tree, budget, onCached, embedDepth, busesRead);
    return tree;
  }

  /**
   * Reads the trees other processes draw inside this one (atspiEmbeds) and hangs each under its
   * socket, its nodes marked with their bus. Bounded: MAX_EMBED_DEPTH levels, MAX_EMBEDS trees,
   * a bus read once per snapshot (a plug answering its own socket cannot loop), EMBED_READ_MS each.
   */
  private async followEmbeds(
    app: AtspiApp,
    tree: RawTree,
    budget: Budget,
    onCached: (tree: RawTree, source: AtspiApp) => void,
    embedDepth: number,
    busesRead: Set<string>,
  ): Promise<void> {
    if (embedDepth >= MAX_EMBED_DEPTH || budget.expired()) return;
    const listed = budget.foreign.filter((embed) => tree.byPath.get(embed.socket.path) === embed.socket);
    const probed = await Promise.all(
      socketSuspects(tree, new Set(listed.map((embed) => embed.socket))).map(async (socket): Promise<EmbedRef | null> => {
        try {
          const [ref] = await this.bus.call(
            { destination: app.busName, path: socket.path, interface: IFACE.accessible, member: 'GetChildAtIndex', signature: 'i', body: [0] },
            budget.progress,
            'list children',
          );
          return isForeignRef(ref as ObjectRef, app.busName) ? { socket, plug: ref as ObjectRef } : null;
        } catch (error) {
          budget.noteError(error);
          return null;
        }
      }),
    );
    const embeds = [...listed, ...probed.filter((embed): embed is EmbedRef => embed !== null)].slice(0, MAX_EMBEDS);
    await Promise.all(embeds.map((embed) => this.graftEmbed(app, embed, budget, onCached, embedDepth, busesRead)));
  }

  private async graftEmbed(
    app: AtspiApp,
    { socket, plug }: EmbedRef,
    budget: Budget,
    onCached: (tree: RawTree, source: AtspiApp) => void,
    embedDepth: number,
    busesRead: Set<string>,
  ): Promise<void> {
    const busName = await uniqueBusName(this.bus, plug[0], budget.progress);
    if (!busName || busesRead.has(busName)) return;
    busesRead.add(busName);
    budget.embeddedBuses.add(busName);
    const embedApp: AtspiApp = { ...app, busName, rootPath: plug[1] };
    const embedBudget = budget.forEmbed();
    let embedded: RawTree;
    try {
      embedded = await this.fetchTree(embedApp, embedBudget, onCached, embedDepth + 1, busesRead);
    } catch (error) {
      // A process gone between the socket's answer and ours: the app's own tree stands without it.
      if (isTandemError(error, 'cancelled') || budget.progress.signal.aborted) throw error;
      return;
    } finally {
      budget.absorb(embedBudget);
    }
    if (embedded.root.children.length === 0 && embedded.byPath.size <= 1) return;
    for (const node of embedded.byPath.values()) node.busName = busName;
    embedded.root.busName = busName;
    embedded.root.parentPath = socket.path;
    embedded.root.indexInParent = socket.children.length;
    socket.children = [...socket.children, embedded.root];
  }

  /** Live GetChildren where the cache is incomplete; walks what the cache never had. */
  private async reconcile(app: AtspiApp, tree: RawTree, budget: Budget): Promise<void> {
    const needs = [...tree.byPath.values()]
      .map((node) => ({ node, need: childrenNeed(node) }))
      .filter((entry) => entry.need !== null);
    const missingByParent = await Promise.all(
      needs.map(async ({ node, need }) => {
        const refs = await this.liveChildren(app, node, budget);
        if (refs === null) return { node, missing: [] as string[] };
        const paths = need === 'walk' ? await this.pickChildren(app, refs, MANAGED_CHILDREN_CAP, budget) : refs;
        return { node, missing: applyLiveChildren(tree, node, paths) };
      }),
    );
    await Promise.all(
      missingByParent.map(async ({ node, missing }) => {
        if (missing.length === 0) return;
        const fetched = await this.fetchNodes(app, missing, budget);
        // Keep the live order: fetched nodes go where GetChildren put them.
        const position = new Map(missing.map((path, index) => [path, index]));
        for (const child of fetched) {
          child.parentPath = node.path;
          tree.byPath.set(child.path, child);
        }
        node.children = mergeInOrder(node.children, fetched, position);
        await this.walkChildren(app, tree, fetched.filter(isShowing), budget, LIVE_NODES_CAP);
      }),
    );
  }

  /** Level by level, in parallel: the children of `parents`, recursively, within the budget. */
  private async walkChildren(app: AtspiApp, tree: RawTree, parents: RawNode[], budget: Budget, cap: number): Promise<void> {
    let level = parents;
    while (level.length > 0 && !budget.expired()) {
      const next: RawNode[] = [];
      await Promise.all(
        level.map(async (parent) => {
          if (parent.childCount === 0) return;
          const refs = await this.liveChildren(app, parent, budget);
          if (!refs || refs.length === 0) return;
          const room = Math.max(0, Math.min(MANAGED_CHILDREN_CAP, cap - budget.liveNodes));
          const children = await this.fetchNodes(app, await this.pickChildren(app, refs, room, budget), budget);
          children.forEach((child, index) => {
            child.parentPath = parent.path;
            child.indexInParent = index;
            tree.byPath.set(child.path, child);
          });
          parent.children = children;
          next.push(...children.filter((child) => isShowing(child) || parent.role === ROLE.application));
        }),
      );
      level = next;
    }
  }

  /**
   * At most `cap` of a container's children, and the right ones: those on screen and the ones
   * around them, not simply the first `cap`. A long web page or list scrolled halfway down must
   * show what the person sees. Costs one GetState per child, only when there are too many.
   */
  private async pickChildren(app: AtspiApp, refs: string[], cap: number, budget: Budget): Promise<string[]> {
    if (refs.length <= cap) return refs;
    budget.liveCapped = true;
    if (cap === 0) return [];
    const states = await Promise.all(
      refs.map((path) =>
        this.bus
          .call({ destination: app.busName, path, interface: IFACE.accessible, member: 'GetState' }, budget.progress, 'read an element')
          .then(([value]) => value as number[], () => null),
      ),
    );
    const onScreen = (value: number[]): boolean => hasState(value, STATE.showing) || (this.showingFromVisible.has(app.busName) && hasState(value, STATE.visible));
    const firstShowing = states.findIndex((value) => value !== null && onScreen(value));
    return refs.slice(...childWindow(refs.length, cap, firstShowing));
  }

  private async liveChildren(app: AtspiApp, node: RawNode, budget: Budget): Promise<string[] | null> {
    try {
      const [refs] = await this.bus.call(
        { destination: app.busName, path: node.path, interface: IFACE.accessible, member: 'GetChildren' },
        budget.progress,
        'list children',
      );
      for (const ref of refs as ObjectRef[]) if (isForeignRef(ref, app.busName)) budget.foreign.push({ socket: node, plug: ref });
      return (refs as ObjectRef[]).filter((ref) => ref[0] === app.busName).map((ref) => ref[1]);
    } catch (error) {
      budget.noteError(error);
      return null;
    }
  }

  private async fetchNodes(app: AtspiApp, paths: string[], budget: Budget): Promise<RawNode[]> {
    budget.liveNodes += paths.length;
    const nodes = await Promise.all(paths.map((path, order) => this.fetchNode(app, path, order, budget)));
    return nodes.filter((node): node is RawNode => node !== null);
  }

  /**
   * One node, read live (what the cache would have told us): four calls, the three properties
   * in one GetAll. A showing node's geometry is asked for at once, not after the whole walk.
   */
  private async fetchNode(app: AtspiApp, path: string, order: number, budget: Budget): Promise<RawNode | null> {
    const call = (member: string): Promise<unknown> =>
      this.bus.call({ destination: app.busName, path, interface: IFACE.accessible, member }, budget.progress, 'read an element').then((body) => body[0]);
    const known = this.fixedFacts.get(app.busName, path);
    try {
      const [role, states, interfaces, properties] = await Promise.all([
        known ? known.role : call('GetRole'),
        call('GetState'),
        known ? known.interfaces : call('GetInterfaces'),
        this.accessibleProperties(app, path, budget),
      ]);
      if (!known) this.fixedFacts.set(app.busName, path, { role: Number(role), interfaces: interfaces as string[] });
      const node: RawNode = {
        path,
        parentPath: null,
        indexInParent: -1,
        childCount: Number(properties.ChildCount ?? -1),
        interfaces: interfaces as string[],
        name: String(properties.Name ?? ''),
        role: Number(role),
        description: String(properties.Description ?? ''),
        states: states as number[],
        children: [],
        order,
      };
      if (this.showingFromVisible.has(app.busName)) markShowingWhenVisible(node);
      if (isShowing(node)) budget.startDetails(node, () => this.detailsOf(app, node, budget));
      return node;
    } catch (error) {
      budget.noteError(error);
      return null;
    }
  }

  /**
   * Name, Description and ChildCount of one element: one GetAll where the toolkit survives it.
   * Qt 5.15 does not: its AT-SPI adaptor crashes the whole app on Properties.GetAll (measured:
   * FeatherPad died on the first one), so Qt apps are asked property by property.
   */
  private async accessibleProperties(app: AtspiApp, path: string, budget: Budget): Promise<Record<string, unknown>> {
    if (!isGetAllUnsafeToolkit(await this.toolkitOf(app, budget))) {
      return this.bus.getAllProperties(app.busName, path, IFACE.accessible, budget.progress, 'read an element');
    }
    const names = ['Name', 'Description', 'ChildCount'] as const;
    const values = await Promise.all(names.map((name) => this.bus.getProperty(app.busName, path, IFACE.accessible, name, budget.progress, 'read an element')));
    return Object.fromEntries(names.map((name, index) => [name, values[index]]));
  }

  // — details: geometry, actions, text —

  private async fetchDetails(app: AtspiApp, nodes: FlatNode[], budget: Budget): Promise<Map<RawNode, NodeDetails>> {
    const details = new Map<RawNode, NodeDetails>();
    await Promise.all(
      nodes.map(async ({ node }) => {
        details.set(node, await (budget.early.get(node) ?? this.detailsOf(sourceOf(app, node, budget), node, budget)));
      }),
    );
    await this.correctWindowRelative(app, nodes, details, budget);
    await this.readPopupChoices(app, nodes, details, budget);
    return details;
  }

  /**
   * GTK 3's combo box selects its choice itself (detailsOf); Chromium's <select> leaves that to
   * its popup list, a child offering Selection (hidden while closed), and its text holds only
   * that list as an embedded object. Asked only then (an editable combo box's text is what it
   * holds, whatever its list selects; Gecko's has none), once the tree is whole: a node's details may be read
   * before its children are attached.
   */
  private async readPopupChoices(app: AtspiApp, nodes: FlatNode[], details: Map<RawNode, NodeDetails>, budget: Budget): Promise<void> {
    const reads = nodes.map(async ({ node }) => {
      const entry = details.get(node);
      if (!entry || node.role !== ROLE.comboBox || node.interfaces.includes(IFACE.selection) || !isShowing(node)) return;
      // Gecko's <select> (no text) is read from its list's selected item instead: asking its list
      // for its selection ended Firefox ESR's process in the browser suite (twice of two; not seen without it).
      if (entry.value === undefined || !onlyEmbeddedObjects(entry.value)) return;
      const popup = node.children.find((child) => child.interfaces.includes(IFACE.selection));
      if (!popup || budget.expired()) return;
      try {
        entry.choice = await this.selectedChildName(sourceOf(app, node, budget), popup.path, budget);
      } catch (error) {
        budget.noteError(error);
      }
    });
    await Promise.all(reads);
  }

  /**
   * Geometry (showing nodes), action names (showing nodes that are not button-like), the text of fields (their value)
   * and of unnamed text roles (their label), numbers of sliders and the like — never anything of
   * a secure field beyond its name.
   */
  private async detailsOf(app: AtspiApp, node: RawNode, budget: Budget): Promise<NodeDetails> {
    const guard = async <T>(work: () => Promise<T>): Promise<T | undefined> => {
      if (budget.expired()) return undefined;
      try {
        return await work();
      } catch (error) {
        budget.noteError(error);
        return undefined;
      }
    };
    const entry: NodeDetails = {};
    const showing = isShowing(node);
    const tasks: Array<Promise<unknown>> = [];
    if (showing && node.interfaces.includes(IFACE.component)) {
      tasks.push(guard(() => this.extents(app, node.path, budget)).then((rect) => (entry.extents = rect)));
    }
    // Action names decide only whether an element is actionable (toElement); a button-like role
    // is actionable whatever they are, so its GetActions is skipped: ~65 of the ~330 requests a
    // GTK 3 app answers one at a time in a refresh of gtk3-widget-factory. element_action reads
    // the names itself when it acts.
    // An element seen offering actions is not asked again: toolkits tie its actions to its kind
    // (GTK's cells, entries and headers, a web page's links), so they last its life. One seen
    // without any is asked each time, since it may gain one (a click handler added to a page).
    if (showing && node.interfaces.includes(IFACE.action) && !isButtonLikeRole(node.role)) {
      const offered = this.actionsOffered.get(app.busName, node.path);
      if (offered) entry.actionNames = offered;
      else {
        tasks.push(
          guard(() => this.actionNames(app, node.path, budget)).then((names) => {
            entry.actionNames = names;
            if (names && names.length > 0) this.actionsOffered.set(app.busName, node.path, names);
          }),
        );
      }
    }
    // A field labelled the usual way (a label widget related to it) has no name of its own: its
    // label is what a person calls it, and what screen readers read. A GTK 3 combo box without a
    // name of its own answers its choice as its name: its label is asked for too.
    if (showing && ((!ownName(node) && isLabelledRole(node)) || node.role === ROLE.comboBox)) {
      tasks.push(guard(() => this.labelledBy(app, node.path, budget)).then((path) => (entry.labelledBy = path)));
    }
    // Values are read for what is on screen only: a hidden field's value cannot change what the
    // person sees, and hidden ones only cost reads (when one shows, it is read then).
    if (!isSecure(node)) {
      if (isValueTextRole(node.role)) {
        if (showing && node.interfaces.includes(IFACE.text)) {
          tasks.push(guard(() => this.text(app, node.path, budget, VALUE_READ_CAP)).then((read) => read && ((entry.value = read.text), (entry.valueTruncated = read.truncated))));
        }
      } else if (!ownName(node) && isTextRole(node.role) && node.interfaces.includes(IFACE.text)) {
        tasks.push(guard(() => this.text(app, node.path, budget)).then((read) => (entry.text = read?.text)));
      }
      if (showing && isNumericValueRole(node.role) && !isValueTextRole(node.role) && node.interfaces.includes(IFACE.value)) {
        tasks.push(guard(() => this.numericValue(app, node.path, budget)).then((value) => (entry.value = value)));
      }
      if (showing && node.role === ROLE.comboBox && node.interfaces.includes(IFACE.selection)) {
        tasks.push(guard(() => this.selectedChildName(app, node.path, budget)).then((name) => (entry.choice = name)));
      }
    }
    await Promise.all(tasks);
    return entry;
  }

  private async extents(app: AtspiApp, path: string, budget: Budget): Promise<Rect | null> {
    const [box] = await this.bus.call(
      { destination: app.busName, path, interface: IFACE.component, member: 'GetExtents', signature: 'u', body: [COORD_TYPE_SCREEN] },
      budget.progress,
      'read element geometry',
    );
    const [x, y, width, height] = box as number[];
    // Unmapped widgets: INT_MIN (GTK3) or a -1 sized box (hidden notebook tab labels).
    if (x === OFFSCREEN_COORDINATE || y === OFFSCREEN_COORDINATE || width < 0 || height < 0) return null;
    return { x, y, width, height };
  }

  /** The path of the element labelling this one (AT-SPI relation LABELLED_BY), if any. */
  private async labelledBy(app: AtspiApp, path: string, budget: Budget): Promise<string | undefined> {
    const [relations] = await this.bus.call(
      { destination: app.busName, path, interface: IFACE.accessible, member: 'GetRelationSet' },
      budget.progress,
      'read element relations',
    );
    const labelled = (relations as Array<[number, ObjectRef[]]>).find(([type]) => type === RELATION_LABELLED_BY);
    return labelled?.[1].find(([busName]) => busName === app.busName || busName === '')?.[1];
  }

  private actionNames(app: AtspiApp, path: string, budget: Budget): Promise<string[]> {
    return readActionNames(this.bus, app.busName, path, budget.embeddedBuses.has(app.busName), budget.progress, 'read element actions');
  }

  /**
   * One call, capped: toolkits clamp an end offset past the text (GTK3 and GTK4 do), and GTK4
   * has no CharacterCount property to ask first. One character more than the cap is asked for,
   * so a text cut by the cap is known to be cut.
   */
  private async text(app: AtspiApp, path: string, budget: Budget, cap = TEXT_READ_CAP): Promise<{ text: string; truncated: boolean }> {
    const read = async (end: number): Promise<string> => {
      const [text] = await this.bus.call(
        { destination: app.busName, path, interface: IFACE.text, member: 'GetText', signature: 'ii', body: [0, end] },
        budget.progress,
        'read element text',
      );
      return String(text ?? '');
    };
    const text = await read(cap + 1);
    if (text !== '') return firstCharacters(text, cap);
    // Gecko and LibreOffice answer '' to an end offset past the text instead of clamping it:
    // when the element says it holds characters, ask again for exactly those (GTK 4 has no
    // CharacterCount: its '' stands).
    const count = await this.bus.getProperty(app.busName, path, IFACE.text, 'CharacterCount', budget.progress, 'read element text').catch(() => 0);
    return typeof count === 'number' && count > 0 ? firstCharacters(await read(Math.min(count, cap + 1)), cap) : { text: '', truncated: false };
  }

  /** The name of a combo box's chosen item (Selection.GetSelectedChild), if it has one. */
  private async selectedChildName(app: AtspiApp, path: string, budget: Budget): Promise<string | undefined> {
    const [ref] = await this.bus.call(
      { destination: app.busName, path, interface: IFACE.selection, member: 'GetSelectedChild', signature: 'i', body: [0] },
      budget.progress,
      'read the chosen item',
    );
    const [busName, childPath] = ref as ObjectRef;
    if (childPath === NULL_PATH || (busName !== app.busName && busName !== '')) return undefined;
    const name = await this.bus.getProperty(app.busName, childPath, IFACE.accessible, 'Name', budget.progress, 'read the chosen item');
    return typeof name === 'string' ? name : undefined;
  }

  /** A slider's or progress bar's current value, as the number reads (at most 4 decimals). */
  private async numericValue(app: AtspiApp, path: string, budget: Budget): Promise<string | undefined> {
    const value = await this.bus.getProperty(app.busName, path, IFACE.value, 'CurrentValue', budget.progress, 'read element value');
    return typeof value === 'number' && Number.isFinite(value) ? String(Math.round(value * 10_000) / 10_000) : undefined;
  }

  /**
   * GTK4 (4.8) reports extents relative to the toplevel even when screen coordinates are asked
   * for: shift each window's subtree by the window's root position (from the X11 half).
   */
  private async correctWindowRelative(app: AtspiApp, nodes: FlatNode[], details: Map<RawNode, NodeDetails>, budget: Budget): Promise<void> {
    if (!this.windowOrigin || nodes.length < 2) return;
    const toolkit = await this.toolkitOf(app, budget);
    if (!isWindowRelativeToolkit(toolkit)) return;
    const originByIndex = new Map<number, Point | null>();
    await Promise.all(
      nodes
        .filter((entry) => entry.depth === 1)
        .map(async (entry) => {
          const origin = await this.windowOrigin!(app.pid, entry.node.name).catch(() => null);
          originByIndex.set(entry.index, origin);
        }),
    );
    const windowOf: number[] = [];
    for (const entry of nodes) {
      windowOf[entry.index] = entry.depth === 1 ? entry.index : entry.parentIndex === null ? -1 : windowOf[entry.parentIndex];
      const origin = originByIndex.get(windowOf[entry.index]);
      const rect = details.get(entry.node)?.extents;
      if (origin && rect) {
        rect.x += origin.x;
        rect.y += origin.y;
      }
    }
  }

  private toolkitOf(app: AtspiApp, budget: Budget): Promise<Toolkit> {
    return this.toolkits.of(app.busName, app.rootPath, budget.progress);
  }
}

interface NodeDetails {
  /** undefined: not read; null: off screen. */
  extents?: Rect | null;
  actionNames?: string[];
  /** An unnamed text role's content: its label. */
  text?: string;
  /** Path of the label element related to an unnamed field. */
  labelledBy?: string;
  /** What a field or slider holds. */
  value?: string;
  /** The field's text is longer than what was read (VALUE_READ_CAP). */
  valueTruncated?: boolean;
  /** A combo box's chosen item. */
  choice?: string;
}

/** The app or embedded process `node` was read from: its reads go there. */
function sourceOf(app: AtspiApp, node: RawNode, budget: Budget): AtspiApp {
  return node.busName === undefined ? app : (budget.sources.get(node.busName) ?? app);
}

/**
 * [start, end) of the `cap` children to read out of `count`: from a few before the first one on
 * screen (context above what is visible), else from the start.
 */
export function childWindow(count: number, cap: number, firstShowing: number): [number, number] {
  if (count <= cap) return [0, count];
  if (firstShowing < 0) return [0, cap];
  const start = Math.max(0, Math.min(firstShowing - Math.floor(cap / 10), count - cap));
  return [start, start + cap];
}

/**
 * GTK 4.8 sets the showing state on windows only; its "visible" means mapped in a mapped
 * window, which is what showing means elsewhere. Without this every GTK4 widget would look hidden.
 */
function markShowingWhenVisible(node: RawNode): void {
  if (!hasState(node.states, STATE.visible) || hasState(node.states, STATE.showing)) return;
  const states = [...node.states];
  states[0] = ((states[0] ?? 0) | (1 << STATE.showing)) >>> 0;
  node.states = states;
}

/**
 * GTK 4.8 describes widgets without a tooltip, and names fields without a label, by their class
 * name ("GtkEntry", "GtkPasswordEntry"): no help to anyone, and no name.
 */
function meaningful(text: string): string {
  return /^Gtk[A-Z][A-Za-z]*$/.test(text) ? '' : text;
}

/** The node's own accessible name, unless it is a toolkit's class name standing in for none. */
function ownName(node: RawNode): string {
  return meaningful(node.name);
}

/** What the node's label children show (GTK 4 buttons keep their visible label there). */
function labelChildren(node: RawNode): string[] {
  return node.children.filter((child) => roleName(child.role) === 'label').map((child) => meaningful(child.name));
}

function isSecure(node: RawNode): boolean {
  return node.role === ROLE.passwordText;
}

/** AtspiRelationType LABELLED_BY. */
const RELATION_LABELLED_BY = 2;

/** Unnamed elements worth asking for their label: fields, sliders and the like. */
function isLabelledRole(node: RawNode): boolean {
  return isSecure(node) || isValueTextRole(node.role) || isNumericValueRole(node.role);
}

/** The name of the element at `path` (a field's label), when the snapshot has it. */
function labelOf(path: string | undefined, all: FlatNode[]): string {
  if (!path) return '';
  return all.find((entry) => entry.node.path === path)?.node.name ?? '';
}

/**
 * "checked"/"unchecked" (or "mixed") for elements that are on or off, from their states (no
 * extra call): their on/off state is their value, and `selected` stays for selection.
 */
function toggleValue(node: RawNode): string | undefined {
  if (!isToggleRole(node.role) && !hasState(node.states, STATE.checkable)) return undefined;
  if (hasState(node.states, STATE.indeterminate)) return 'mixed';
  return hasState(node.states, STATE.checked) || hasState(node.states, STATE.pressed) ? 'checked' : 'unchecked';
}

/**
 * A combo box's label and value. GTK 3 answers an unnamed combo box's choice as its name: a name
 * equal to the choice is no name, and the label related to it (if any) names it instead.
 */
function comboNameAndValue(node: RawNode, details: NodeDetails | undefined, label: string): { name: string; value: string | undefined } {
  const choice = details?.choice;
  const name = ownName(node);
  if (choice === undefined) return { name: name || label, value: details?.value === undefined || onlyEmbeddedObjects(details.value) ? undefined : details.value };
  return { name: name && name !== choice ? name : label, value: choice };
}

/**
 * Text made only of U+FFFC (the object replacement character: Chromium's <select> holds its
 * popup list as an embedded object in its text) says nothing a person sees: it is no text.
 */
function onlyEmbeddedObjects(text: string): boolean {
  return /^[\s\uFFFC]*\uFFFC[\s\uFFFC]*$/.test(text);
}

/** The name of the selected item in a combo box's own list (what Gecko exposes instead of Selection). */
function selectedItemBelow(entry: FlatNode, all: FlatNode[]): string | undefined {
  for (let k = entry.index + 1; k < all.length && all[k].depth > entry.depth; k++) {
    const { node } = all[k];
    if (hasState(node.states, STATE.selected) && node.name && /item/.test(roleName(node.role))) return node.name;
  }
  return undefined;
}

function mergeInOrder(existing: RawNode[], fetched: RawNode[], position: Map<string, number>): RawNode[] {
  if (existing.length === 0) return fetched;
  return [...existing, ...fetched.sort((a, b) => (position.get(a.path) ?? 0) - (position.get(b.path) ?? 0))];
}

function toElement(busName: string, entry: FlatNode, details: NodeDetails | undefined, all: FlatNode[]): ElementNode {
  const { node } = entry;
  const secure = isSecure(node);
  const extents = details?.extents;
  const showing = hasState(node.states, STATE.showing) && hasState(node.states, STATE.visible);
  // A handle's parent is on the element's own bus: an embedded tree's root has none there.
  const parentNode = entry.parentIndex === null ? undefined : all[entry.parentIndex].node;
  const parent = parentNode && (parentNode.busName ?? '') === (node.busName ?? '') ? parentNode : undefined;
  const actionNames = details?.actionNames;
  // On/off elements (check boxes, toggles) carry their state as their value, not as selected.
  const selectable = hasState(node.states, STATE.selectable);
  const handle: AtspiHandle = {
    kind: 'atspi',
    busName,
    path: node.path,
    role: node.role,
    interfaces: node.interfaces,
    states: node.states,
    parentPath: parent?.path ?? null,
    parentInterfaces: parent?.interfaces ?? [],
    indexInParent: parent ? parent.children.indexOf(node) : -1,
    ...(node.busName !== undefined ? { embedded: true as const } : {}),
    ...(actionNames ? { actionNames } : {}),
  };
  const label = labelOf(details?.labelledBy, all);
  const named = readableName({ name: ownName(node), description: meaningful(node.description), childLabels: labelChildren(node), pressable: isButtonLikeRole(node.role) });
  let text = (ownName(node) ? named : '') || label || (secure ? '' : (details?.text ?? '')) || named;
  let value = secure ? undefined : (details?.value ?? toggleValue(node));
  if (node.role === ROLE.comboBox && !secure) {
    // Gecko's select has no Selection interface: its choice is the selected item of its list.
    const combo = comboNameAndValue(node, { ...details, choice: details?.choice ?? selectedItemBelow(entry, all) }, label);
    text = combo.name || meaningful(node.description);
    value = combo.value;
  }
  const truncated = !secure && details?.value !== undefined && details.valueTruncated === true;
  return {
    index: entry.index,
    parentIndex: entry.parentIndex,
    depth: entry.depth,
    role: toPascalRole(roleName(node.role)),
    text,
    ...(value !== undefined ? { value } : {}),
    ...(truncated ? { valueTruncated: true } : {}),
    editable: hasState(node.states, STATE.editable),
    ...(hasState(node.states, STATE.singleLine) ? { singleLine: true } : {}),
    bounds: extents ?? null,
    // Unmapped widgets answer INT_MIN geometry while still claiming to be showing.
    visible: showing && extents !== null,
    enabled: hasState(node.states, STATE.sensitive),
    focused: hasState(node.states, STATE.focused),
    actionable: (actionNames ? actionNames.length > 0 : node.interfaces.includes(IFACE.action)) || isButtonLikeRole(node.role),
    secure,
    ...(selectable ? { selected: hasState(node.states, STATE.selected) } : {}),
    ...(hasState(node.states, STATE.modal) ? { modal: true } : {}),
    identity: atspiIdentity(busName, node.path),
    handle,
  };
}
