// The tray (menu-bar) menu as data: a pure function of the app state, so the tests read the very
// template Electron would show and click its items.

import type { MenuItemConstructorOptions } from './electronApi.js';
import type { AppStateView, McpClientConfig } from '../shared/types.js';

export interface TrayActions {
  setPaused(paused: boolean): void;
  showFeed(): void;
  showPermissions(): void;
  copyMcpConfig(client: McpClientConfig['client']): void;
  openArtifactsFolder(): void;
  quit(): void;
}

export function trayMenuTemplate(state: AppStateView, configs: McpClientConfig[], actions: TrayActions): MenuItemConstructorOptions[] {
  return [
    { id: 'status', label: `Tandem — ${state.status}`, enabled: false },
    { type: 'separator' },
    {
      id: 'pause',
      label: 'Pause agent control',
      type: 'checkbox',
      checked: state.paused,
      click: () => actions.setPaused(!state.paused),
    },
    { id: 'feed', label: 'Show live feed', click: () => actions.showFeed() },
    { id: 'permissions', label: 'Permissions…', click: () => actions.showPermissions() },
    {
      id: 'copy-config',
      label: 'Copy MCP config',
      submenu: configs.map((config) => ({
        id: `copy-config:${config.client}`,
        label: config.title,
        click: () => actions.copyMcpConfig(config.client),
      })),
    },
    { id: 'artifacts', label: 'Open artifacts folder', click: () => actions.openArtifactsFolder() },
    { type: 'separator' },
    { id: 'quit', label: 'Quit Tandem', accelerator: 'CommandOrControl+Q', click: () => actions.quit() },
  ];
}
