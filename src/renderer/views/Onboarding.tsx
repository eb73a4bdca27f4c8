// First-run wizard (also "Permissions…" in the tray): one step per macOS permission with live
// status and a button that asks / opens the right settings pane — on Linux one step with the
// `tandem doctor` checks and their remedies — then a harmless test on a real app, then the MCP
// client configs to copy. A grant macOS applies only to a new process (Screen Recording) gets
// a "Relaunch Tandem" button; the relaunched app reopens the wizard at that step.

import { useCallback, useEffect, useState } from 'react';
import type { McpClientConfig, PermissionItem, PermissionView, TestRunResult } from '../../shared/types.js';
import { tandem } from '../api.js';
import { CopyBlock } from '../components/CopyBlock.js';
import { FailureNote } from '../components/FailureNote.js';
import { StateBadge } from '../components/StateBadge.js';
import { useFailure } from '../useFailure.js';
import { usePermissions } from '../usePermissions.js';

type Step = { kind: 'permission'; item: PermissionItem } | { kind: 'checks' } | { kind: 'test' } | { kind: 'clients' };

/** The step's key, as main keeps it across a relaunch: the permission's id, or the step's kind. */
function stepKey(step: Step): string {
  return step.kind === 'permission' ? step.item.id : step.kind;
}

function RelaunchOffer({ title, resumeStep }: { title: string; resumeStep: string }) {
  const [relaunching, setRelaunching] = useState(false);
  const { error, attempt } = useFailure();
  const relaunch = async () => {
    setRelaunching(true);
    const done = await attempt('Relaunching failed', async () => {
      await tandem().relaunchApp({ resumeStep });
      return true;
    });
    if (!done) setRelaunching(false);
  };
  return (
    <div className="relaunch" data-relaunch={resumeStep}>
      <p>
        macOS applies {title} only when Tandem starts again. Once Tandem is turned on in System Settings, relaunch it: this window comes back at this step.
      </p>
      <button type="button" className="button" onClick={relaunch} disabled={relaunching} data-action="relaunch">
        {relaunching ? 'Relaunching…' : 'Relaunch Tandem'}
      </button>
      <FailureNote error={error} />
    </div>
  );
}

function CommandRemedy({ id, command }: { id: string; command: string }) {
  const [copied, setCopied] = useState(false);
  const { error, attempt } = useFailure();
  const copy = async () => {
    const done = await attempt('Copying the command failed', async () => {
      await tandem().copyPermissionCommand({ id });
      return true;
    });
    if (!done) return;
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  };
  return (
    <div className="command-remedy">
      <code className="command">{command}</code>
      <button type="button" className="button small" onClick={copy} data-action={`copy-${id}`} aria-label="Copy the command">
        {copied ? 'Copied' : 'Copy'}
      </button>
      <FailureNote error={error} />
    </div>
  );
}

function PermissionAction({ item, onRequest }: { item: PermissionItem; onRequest(id: string): void }) {
  if (!item.action) return null;
  if (item.action.kind === 'run-command') {
    return item.action.value ? <CommandRemedy id={item.id} command={item.action.value} /> : null;
  }
  return (
    <button type="button" className="button" onClick={() => onRequest(item.id)} data-action={item.id}>
      {item.action.label}
    </button>
  );
}

function PermissionStep({ item, onRequest }: { item: PermissionItem; onRequest(id: string): void }) {
  return (
    <div className="step-body" data-permission={item.id}>
      <h2>
        {item.title} <StateBadge state={item.state} />
      </h2>
      <p>{item.detail}</p>
      {item.state !== 'granted' && item.remedy && <p className="remedy">{item.remedy}</p>}
      <PermissionAction item={item} onRequest={onRequest} />
      {item.state !== 'granted' && item.relaunchToApply && <RelaunchOffer title={item.title} resumeStep={item.id} />}
    </div>
  );
}

function ChecksStep({ items, onRequest }: { items: PermissionItem[]; onRequest(id: string): void }) {
  return (
    <div className="step-body">
      <h2>System checks</h2>
      <p className="muted">The same checks as <code>tandem doctor</code>. They update by themselves.</p>
      <ul className="checks">
        {items.map((item) => (
          <li key={item.id} data-permission={item.id}>
            <div className="check-head">
              <strong>{item.title}</strong> <StateBadge state={item.state} />
            </div>
            <div className="muted">{item.detail}</div>
            {item.state !== 'granted' && item.state !== 'not-applicable' && item.remedy && <div className="remedy">{item.remedy}</div>}
            {item.state !== 'granted' && <PermissionAction item={item} onRequest={onRequest} />}
          </li>
        ))}
      </ul>
    </div>
  );
}

function TestStep() {
  const [running, setRunning] = useState(false);
  const [result, setResult] = useState<TestRunResult | null>(null);
  const { error, attempt } = useFailure();
  const run = async () => {
    setRunning(true);
    setResult((await attempt('The test could not run', () => tandem().runTestRefresh())) ?? null);
    setRunning(false);
  };
  return (
    <div className="step-body">
      <h2>Test it</h2>
      <p>Tandem reads the window of an app that is already open. Nothing is clicked or typed.</p>
      <button type="button" className="button" onClick={run} disabled={running} data-action="test">
        {running ? 'Reading…' : 'Run the test'}
      </button>
      <FailureNote error={error} />
      {result && (
        <div className={`test-result ${result.ok ? 'ok' : 'failed'}`} data-ok={result.ok}>
          <strong>{result.ok ? 'It works.' : 'It did not work.'}</strong> {result.summary}
          {result.preview && <pre>{result.preview}</pre>}
        </div>
      )}
    </div>
  );
}

function ClientsStep() {
  const [configs, setConfigs] = useState<McpClientConfig[]>([]);
  const { error, attempt } = useFailure();
  const load = useCallback(async () => setConfigs((await attempt('The client configurations could not be made', () => tandem().listMcpConfigs())) ?? []), [attempt]);
  useEffect(() => {
    void load();
  }, [load]);
  return (
    <div className="step-body">
      <h2>Connect your AI client</h2>
      <p className="muted">Each client starts Tandem's launcher, which talks to this app.</p>
      {error && (
        <>
          <FailureNote error={error} />
          <button type="button" className="button small" onClick={() => void load()} data-action="retry-configs">
            Try again
          </button>
        </>
      )}
      {configs.map((config) => (
        <CopyBlock key={config.client} config={config} />
      ))}
    </div>
  );
}

function wizardSteps(view: PermissionView): Step[] {
  return view.platform === 'darwin'
    ? [...view.items.map((item): Step => ({ kind: 'permission', item })), { kind: 'test' }, { kind: 'clients' }]
    : [{ kind: 'checks' }, { kind: 'test' }, { kind: 'clients' }];
}

export function Onboarding() {
  const { view, error, request, recheck } = usePermissions();
  const finishing = useFailure();
  const [index, setIndex] = useState(0);
  // Where the wizard was when Tandem relaunched itself (asked once; null on a plain start).
  const [resumeStep, setResumeStep] = useState<string | null>(null);
  useEffect(() => {
    void tandem()
      .getResumeStep()
      .then(setResumeStep, () => setResumeStep(null));
  }, []);
  useEffect(() => {
    if (!view || !resumeStep) return;
    const resumed = wizardSteps(view).findIndex((step) => stepKey(step) === resumeStep);
    if (resumed >= 0) setIndex(resumed);
    setResumeStep(null);
  }, [view, resumeStep]);
  if (!view && error) {
    return (
      <main className="wizard loading" data-state="check-failed">
        <p>
          <strong>The permissions could not be checked.</strong> {error}
        </p>
        <button type="button" className="button" onClick={() => void recheck()} data-action="retry">
          Try again
        </button>
      </main>
    );
  }
  if (!view) return <main className="wizard loading">Checking permissions…</main>;

  const steps = wizardSteps(view);
  const current = steps[Math.min(index, steps.length - 1)];
  const last = index >= steps.length - 1;
  const onRequest = (id: string) => void request(id);

  return (
    <main className="wizard">
      <header className="wizard-header">
        <h1>Set up Tandem</h1>
        <ol className="progress" aria-label="Steps">
          {steps.map((step, position) => (
            <li key={position} className={position === index ? 'current' : position < index ? 'done' : ''} />
          ))}
        </ol>
      </header>
      {current.kind === 'permission' && <PermissionStep item={current.item} onRequest={onRequest} />}
      {current.kind === 'checks' && <ChecksStep items={view.items} onRequest={onRequest} />}
      {current.kind === 'test' && <TestStep />}
      {current.kind === 'clients' && <ClientsStep />}
      {/* The last check or request failed: what is shown may be stale, and the person should know why. */}
      <FailureNote error={error && `The permissions could not be checked: ${error}`} />
      <FailureNote error={finishing.error} />
      <footer className="wizard-footer">
        <button type="button" className="button quiet" disabled={index === 0} onClick={() => setIndex(index - 1)}>
          Back
        </button>
        {last ? (
          <button type="button" className="button primary" onClick={() => void finishing.attempt('Closing the wizard failed', () => tandem().finishOnboarding())} data-action="finish">
            Done
          </button>
        ) : (
          <button type="button" className="button primary" onClick={() => setIndex(index + 1)} data-action="next">
            Continue
          </button>
        )}
      </footer>
    </main>
  );
}
