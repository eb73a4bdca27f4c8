// `node dist/scripts/toolSizes.js`: the size of tools/list per tool profile — what a model
// carries in every turn for Tandem's tools.
import { TOOL_PROFILES } from '../src/core/settings.js';
import { toolListSize } from './lib/toolListSize.js';

const kb = (n: number): string => `${(n / 1024).toFixed(1)} KB`;

for (const profile of TOOL_PROFILES) {
  const size = await toolListSize(profile);
  console.log(`${profile.padEnd(10)} ${String(size.tools).padStart(2)} tools  tools/list ${kb(size.listBytes).padStart(9)}  name+description+inputSchema ${kb(size.modelBytes).padStart(9)}`);
  console.log(`           largest: ${size.largest.map((tool) => `${tool.name} ${kb(tool.bytes)}`).join(', ')}`);
}
