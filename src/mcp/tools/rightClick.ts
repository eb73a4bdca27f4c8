import { driverClickTool } from '../driverClick.js';

export const rightClick = driverClickTool({
  name: 'right_click',
  title: 'Right-click an element or a window point',
  description:
    "Right-clicks an element by element_index, or a point of the app's window by x,y from its top-left: the context menu it opens is in the diff (its items can be clicked next by element or element_index). Guarded like every action.",
  button: 'right',
  count: 1,
});
