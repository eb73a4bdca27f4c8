// Tool arguments as a person reads them: one `key: value` line each, and steps in words
// (`click "Add"`, `type "…"`) instead of JSON. Secure text arrives already redacted by the engine.

type Loose = Record<string, unknown>;

function quoted(value: unknown): string {
  return JSON.stringify(String(value));
}

function describeTarget(target: Loose | undefined): string {
  if (!target) return '';
  const point = target.point as Loose | undefined;
  if (point) return `${point.x},${point.y}`;
  const query = (target.query ?? target) as Loose;
  const parts = [
    query.text !== undefined ? quoted(query.text) : '',
    query.role !== undefined ? `[${query.role}]` : '',
    query.index !== undefined ? `#${query.index}` : '',
  ];
  return parts.filter(Boolean).join(' ');
}

function modifiers(step: Loose): string {
  const list = Array.isArray(step.modifiers) ? (step.modifiers as string[]) : [];
  return list.length ? `${list.join('+')}+` : '';
}

export function describeStep(step: unknown): string {
  if (typeof step !== 'object' || step === null) return JSON.stringify(step);
  const s = step as Loose;
  switch (s.kind) {
    case 'click': {
      const how = s.count === 2 ? 'double-click' : s.button === 'right' ? 'right-click' : 'click';
      return `${how} ${modifiers(s)}${describeTarget(s.target as Loose)}`.trim();
    }
    case 'type':
      return `type ${quoted(s.text)}`;
    case 'press':
      return `press ${modifiers(s)}${s.key}`;
    case 'scroll':
      return `scroll ${s.deltaY ?? 0} lines${s.deltaX ? `, ${s.deltaX} across` : ''}`;
    case 'drag':
      return `drag ${modifiers(s)}${describeTarget(s.from as Loose)} to ${describeTarget(s.to as Loose)}`.trim();
    case 'wait':
      return `wait ${s.ms} ms`;
    case 'element-action':
      return `${s.action} ${describeTarget(s.query as Loose)}`;
    case 'set-value':
      return `set ${describeTarget(s.query as Loose)} to ${quoted(s.value)}`;
    case 'set-selected':
      return `${s.selected ? 'select' : 'deselect'} ${describeTarget(s.query as Loose)}`;
    default:
      return JSON.stringify(step);
  }
}

export function formatArgs(args: Record<string, unknown>): string {
  return Object.entries(args)
    .map(([key, value]) => {
      if (key === 'steps' && Array.isArray(value)) return `steps: ${value.map(describeStep).join(' → ')}`;
      return `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`;
    })
    .join('\n');
}
