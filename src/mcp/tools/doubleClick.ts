import { driverClickTool } from '../driverClick.js';

export const doubleClick = driverClickTool({
  name: 'double_click',
  // click with count 2 does the same in the default profile.
  profiles: [],
  title: 'Double-click an element or a point',
  description:
    'Double-clicks an element by element_index, or x,y in screen points as the tree prints them (opens a file, selects a word) — guarded like every action. ' +
    'Returns a summary of what changed and a diff file to grep.',
  button: 'left',
  count: 2,
});
