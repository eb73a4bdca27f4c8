// Whether a type_text step left other text in its field: GTK's Save dialog pre-selects the file
// name's stem, so typing "probe.txt" over "probe.txt" gives "probe.txt.txt". A fact read from the
// tree after the call (the field's value then) against the one before; src/mcp words it.

import type { TreeSnapshot } from '../model.js';
import { refind } from '../tree/elementIndex.js';
import { displayValue } from '../tree/treeFormat.js';
import type { CallState } from './callState.js';

export function noteKeptText(state: CallState, after: TreeSnapshot): void {
  for (const entry of state.textEntries) {
    const step = state.steps[entry.step];
    if (!entry.element || entry.replaced || step?.kind !== 'type-text') continue;
    const before = state.candidateNodes.get(entry.element);
    const had = before ? displayValue(before) : undefined;
    const now = before ? refind(after.elements, before) : null;
    const holds = now ? displayValue(now) : undefined;
    // Only where both values are known, the text is there, and something else is there too.
    if (had && holds !== undefined && holds !== step.text && holds.includes(step.text)) entry.keptOtherText = true;
  }
}
