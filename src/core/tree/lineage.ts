// A snapshot's parent links: an element's parent, and whether one element holds another. Elements
// sit at the position of their index unless a tree was reordered (a modal dialog's first), so
// the position is tried before a search.

import type { ElementNode } from '../model.js';

/** Longer than any real nesting: a malformed tree with a parent cycle ends here. */
const MAX_HOPS = 10_000;

/** The element's parent in `elements`, or undefined for the root. */
export function parentOf(elements: readonly ElementNode[], el: ElementNode): ElementNode | undefined {
  const at = el.parentIndex;
  if (at === null) return undefined;
  return elements[at]?.index === at ? elements[at] : elements.find((other) => other.index === at);
}

/** Whether `outer` is `inner` or one of its ancestors. */
export function holds(elements: readonly ElementNode[], outer: ElementNode, inner: ElementNode): boolean {
  let node: ElementNode | undefined = inner;
  for (let hops = 0; node && hops < MAX_HOPS; hops++, node = parentOf(elements, node)) {
    if (node.index === outer.index) return true;
  }
  return false;
}
