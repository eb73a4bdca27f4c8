// Lint, including the layer rules of docs/architecture.md: imports only point downwards.
import tseslint from 'typescript-eslint';

const OS_BINDINGS = ['koffi', 'x11', 'dbus-next', 'node-mac-permissions'];
const SDK = ['@modelcontextprotocol/*', '@modelcontextprotocol/**'];
const layer = (name) => [`**/${name}/**`, `**/${name}`];

/** One no-restricted-imports rule per folder: what that layer must not reach. */
function forbid(files, { paths = [], patterns = [], message }) {
  return {
    files,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: paths.map((name) => ({ name, message })),
          patterns: [{ group: patterns, message }],
        },
      ],
    },
  };
}

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', 'test-output/**', 'src/renderer/dist/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-console': ['error', { allow: ['error', 'warn'] }],
    },
  },
  forbid(['src/core/**'], {
    paths: ['electron', 'node:child_process', 'child_process', ...OS_BINDINGS],
    patterns: [...SDK, ...layer('mcp'), ...layer('main'), ...layer('backends'), ...layer('launcher'), ...layer('renderer'), ...layer('preload'), ...layer('native'), ...layer('shared')],
    message: 'src/core knows no OS, no Electron, no MCP SDK and no layer above it (docs/architecture.md, Layers).',
  }),
  forbid(['src/mcp/**'], {
    paths: ['electron', ...OS_BINDINGS],
    patterns: [...layer('main'), ...layer('backends'), ...layer('launcher'), ...layer('renderer'), ...layer('preload'), ...layer('native')],
    message: 'src/mcp speaks the protocol over core only (docs/architecture.md, Layers).',
  }),
  forbid(['src/backends/**'], {
    paths: ['electron'],
    patterns: [...SDK, ...layer('mcp'), ...layer('main'), ...layer('launcher'), ...layer('renderer'), ...layer('preload')],
    message: 'Backends implement core.Desktop over native bindings only (docs/architecture.md, Layers).',
  }),
  forbid(['native/**'], {
    paths: ['electron'],
    patterns: [...SDK, '**/src/**', ...layer('core')],
    message: 'native/ is thin bindings: it imports nothing of Tandem (docs/architecture.md, Layers).',
  }),
  forbid(['src/launcher/**'], {
    paths: ['electron'],
    patterns: [...layer('main'), ...layer('renderer'), ...layer('preload'), '**/backends/linux/**', '**/backends/macos/**'],
    message: 'The launcher reaches a backend only through src/backends/index.ts, never Electron (docs/architecture.md, Layers).',
  }),
  forbid(['src/main/**'], {
    patterns: [...layer('renderer'), ...layer('preload'), '**/backends/linux/**', '**/backends/macos/**'],
    message: 'Electron main reaches a backend only through src/backends/index.ts and the UI only through IPC (docs/architecture.md, Layers).',
  }),
  forbid(['src/renderer/**'], {
    paths: ['electron', 'node:fs', 'fs'],
    patterns: [...SDK, ...layer('core'), ...layer('mcp'), ...layer('main'), ...layer('backends'), ...layer('launcher'), ...layer('preload'), ...layer('native')],
    message: 'The renderer talks to main only through the preload API and src/shared types (docs/architecture.md, Layers).',
  }),
  forbid(['src/preload/**', 'src/shared/**'], {
    patterns: [...SDK, ...layer('core'), ...layer('mcp'), ...layer('main'), ...layer('backends'), ...layer('launcher'), ...layer('renderer'), ...layer('native')],
    message: 'preload and shared hold only the IPC contract (docs/architecture.md, Layers).',
  }),
  {
    // CLIs and scripts print to stdout on purpose.
    files: ['scripts/**', 'bench/**', 'test/**'],
    rules: { 'no-console': 'off' },
  },
);
