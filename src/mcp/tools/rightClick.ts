import { driverClickTool } from '../driverClick.js';

export const rightClick = driverClickTool({
  name: 'right_click',
  // click with button "right" does the same in the default profile.
  profiles: [],
  title: 'Right-click an element or a point',
  description:
    'Right-clicks an element by element_index, or x,y in screen points as the tree prints them: the context menu it opens is in the diff (its items can be clicked next by element_index). Guarded like every action.',
  button: 'right',
  count: 1,
});
