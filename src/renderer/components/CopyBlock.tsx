// A config snippet with a copy button. Copying goes through main (it writes the clipboard with
// the text it generated), so the renderer needs no clipboard permission.

import { useState } from 'react';
import type { McpClientConfig } from '../../shared/types.js';
import { tandem } from '../api.js';

export function CopyBlock({ config }: { config: McpClientConfig }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await tandem().copyMcpConfig({ client: config.client });
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
      <p className="muted">{config.where}</p>
      <pre>{config.text}</pre>
    </section>
  );
}
