// A diff as the engine writes it: `+ ` added (green), `- ` removed (red), `~ ` changed (amber).

function lineKind(line: string): 'added' | 'removed' | 'changed' | 'context' {
  if (line.startsWith('+ ')) return 'added';
  if (line.startsWith('- ')) return 'removed';
  if (line.startsWith('~ ')) return 'changed';
  return 'context';
}

export function DiffView({ diff }: { diff: string }) {
  const lines = diff.split('\n').filter((line) => line.length > 0);
  return (
    <pre className="diff" aria-label="Changes">
      {lines.map((line, index) => (
        <div key={index} className={`diff-line ${lineKind(line)}`} data-kind={lineKind(line)}>
          {line}
        </div>
      ))}
    </pre>
  );
}
