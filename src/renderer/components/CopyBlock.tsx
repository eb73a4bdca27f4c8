// A config snippet with a copy button. Copying goes through main (it writes the clipboard with
// the text it generated), so the renderer needs no clipboard permission.

import { useState } from 'react';
import type { McpClientConfig } from '../../shared/types.js';
import { tandem } from '../api.js';
import { useFailure } from '../useFailure.js';
import { FailureNote } from './FailureNote.js';

export function CopyBlock({ config }: { config: McpClientConfig }) {
  const [copied, setCopied] = useState(false);
  const { error, attempt } = useFailure();
  const copy = async () => {
    const done = await attempt('Copying failed', async () => {
      await tandem().copyMcpConfig({ client: config.client });
      return true;
    });
    if (!done) return;
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  };
  return (
    <section className="copy-block" data-client={config.client}>
      <header>
        <strong>{config.title}</strong>
        <button type="button" className="button small" onClick={copy} aria-label={`Copy ${config.title} config`}>
          {copied ? 'Copied' : 'Copy'}
        </button>
      </header>
      <FailureNote error={error} />
      <p className="muted">{config.where}</p>
      <pre>{config.text}</pre>
    </section>
  );
}
