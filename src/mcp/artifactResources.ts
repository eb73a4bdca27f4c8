// The files every answer names, as MCP resources. Many clients cannot read local files (Claude
// Desktop has no file tool), so an answer also carries `resource_link` items and the server
// serves them through resources/read (and resources/list, newest first, within retention). The
// engine reads only its own private folder, by names that follow its pattern (artifacts.ts);
// nothing here touches the file system itself.

import path from 'node:path';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ReadResourceResult, ResourceLink } from '@modelcontextprotocol/sdk/types.js';
import type { ArtifactFile } from '../core/artifacts/artifacts.js';
import type { TandemEngine } from '../core/engineApi.js';
import { TandemError, toTandemError } from '../core/errors.js';

export const ARTIFACT_URI_PREFIX = 'tandem://artifacts/';

export type ArtifactRole = 'tree' | 'diff' | 'screenshot' | 'handoff-tree';

const DESCRIPTIONS: Record<ArtifactRole, string> = {
  tree: "The app's accessibility tree, one element per line, each starting with #element_index.",
  diff: "What changed in the app's tree: + added, - removed, ~ changed.",
  screenshot: "The app's window (a crosshair where a click landed; password fields painted over).",
  'handoff-tree': 'The tree of the window that came to the front (another process).',
};

export function artifactUri(filePath: string): string {
  return ARTIFACT_URI_PREFIX + encodeURIComponent(path.basename(filePath));
}

function mimeTypeOf(name: string): string {
  return name.endsWith('.png') ? 'image/png' : 'text/plain';
}

/** A `resource_link` content item for one file an answer names. */
export function artifactLink(filePath: string, role: ArtifactRole, bytes?: number): ResourceLink {
  const name = path.basename(filePath);
  return {
    type: 'resource_link',
    uri: artifactUri(filePath),
    name,
    mimeType: mimeTypeOf(name),
    description: DESCRIPTIONS[role],
    ...(bytes !== undefined ? { size: bytes } : {}),
  };
}

function listed(file: ArtifactFile): { uri: string; name: string; mimeType: string; size: number; description: string } {
  const [, tool = 'call'] = /^[\d-]+_(.+)\.(txt|png)$/.exec(file.name) ?? [];
  return {
    uri: artifactUri(file.name),
    name: file.name,
    mimeType: mimeTypeOf(file.name),
    size: file.bytes,
    description: `${file.kind === 'png' ? 'Screenshot' : 'Tree or diff'} from ${tool} at ${new Date(file.ms).toISOString()}`,
  };
}

/** What a failed read tells the model to do instead. */
function readError(uri: string, error: unknown): Error {
  const failure = toTandemError(error);
  switch (failure.code) {
    case 'not-found':
      return new Error(`${uri} is gone: Tandem keeps the files of its last calls only. Call refresh_traversal {pid} for a fresh tree and screenshot.`);
    case 'bad-input':
      return new Error(`${uri} names no Tandem artifact: use a uri from a tool answer's resource_link or from resources/list.`);
    default:
      return new Error(`${uri} cannot be served: ${failure.message}`);
  }
}

export function registerArtifactResources(server: McpServer, engine: TandemEngine): void {
  const template = new ResourceTemplate(`${ARTIFACT_URI_PREFIX}{name}`, {
    list: async () => ({ resources: (await engine.listArtifacts()).map(listed) }),
  });
  server.registerResource(
    'artifacts',
    template,
    {
      title: 'Tandem artifacts',
      description: 'Trees, diffs and screenshots written by Tandem’s tool calls (the files each answer names), newest first.',
    },
    async (uri, variables): Promise<ReadResourceResult> => {
      const raw = Array.isArray(variables.name) ? variables.name.join('/') : String(variables.name ?? '');
      let name: string;
      try {
        name = decodeURIComponent(raw);
      } catch {
        throw readError(uri.href, new TandemError('bad-input', 'not URI-encoded'));
      }
      const bytes = await engine.readArtifact(name).catch((error: unknown) => {
        throw readError(uri.href, error);
      });
      const mimeType = mimeTypeOf(name);
      return mimeType === 'image/png'
        ? { contents: [{ uri: uri.href, mimeType, blob: bytes.toString('base64') }] }
        : { contents: [{ uri: uri.href, mimeType, text: bytes.toString('utf8') }] };
    },
  );
}
