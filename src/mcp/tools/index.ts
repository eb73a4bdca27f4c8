// Every tool the server offers, in the order tools/list shows them.
import type { ToolDefinition } from '../defineTool.js';
import { bringToFront } from './bringToFront.js';
import { checkPermissions } from './checkPermissions.js';
import { click } from './click.js';
import { doubleClick } from './doubleClick.js';
import { hotkey } from './hotkey.js';
import { rightClick } from './rightClick.js';
import { clickAndTraverse } from './clickAndTraverse.js';
import { getConfig } from './getConfig.js';
import { getCursorPosition } from './getCursorPosition.js';
import { getScreenSize } from './getScreenSize.js';
import { getWindowState } from './getWindowState.js';
import { listApplications } from './listApplications.js';
import { listWindows } from './listWindows.js';
import { openApplication } from './openApplication.js';
import { pressAxAndTraverse } from './pressAxAndTraverse.js';
import { pressKeyAndTraverse } from './pressKeyAndTraverse.js';
import { refreshTraversal } from './refreshTraversal.js';
import { scroll } from './scroll.js';
import { setConfig } from './setConfig.js';
import { scrollAndTraverse } from './scrollAndTraverse.js';
import { setSelectedAndTraverse } from './setSelectedAndTraverse.js';
import { setValueAndTraverse } from './setValueAndTraverse.js';
import { typeAndTraverse } from './typeAndTraverse.js';
import { zoom } from './zoom.js';
import { pressKey } from './pressKey.js';
import { typeText } from './typeText.js';
import { drag } from './drag.js';
import { launchApp } from './launchApp.js';
import { killApp } from './killApp.js';
import { runSteps } from './runSteps.js';
import { elementAction, setSelected, setValue } from './elementActions.js';

export const tools: readonly ToolDefinition[] = [
  openApplication,
  clickAndTraverse,
  typeAndTraverse,
  pressKeyAndTraverse,
  scrollAndTraverse,
  refreshTraversal,
  setValueAndTraverse,
  pressAxAndTraverse,
  setSelectedAndTraverse,
  listApplications,
  listWindows,
  getWindowState,
  zoom,
  getScreenSize,
  getCursorPosition,
  checkPermissions,
  click,
  doubleClick,
  rightClick,
  hotkey,
  scroll,
  bringToFront,
  pressKey,
  typeText,
  drag,
  runSteps,
  setValue,
  setSelected,
  elementAction,
  launchApp,
  killApp,
  getConfig,
  setConfig,
];
