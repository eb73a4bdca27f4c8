// One failed call to main, said plainly where it happened.

export function FailureNote({ error }: { error: string | null }) {
  if (!error) return null;
  return (
    <p className="error-text" role="alert" data-failure>
      {error}
    </p>
  );
}
