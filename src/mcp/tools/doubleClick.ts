import { driverClickTool } from '../driverClick.js';

export const doubleClick = driverClickTool({
  name: 'double_click',
  title: 'Double-click an element or a window point',
  description:
    "Double-clicks an element by element_index, or a point of the app's window by x,y from its top-left (opens a file, selects a word) — guarded like every action. " +
    'Returns a summary of what changed and a diff file to grep.',
  button: 'left',
  count: 2,
});
