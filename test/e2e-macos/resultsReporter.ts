// A node:test reporter writing one JSON line per test (name, pass/fail, skip reason, error) for
// the workflow's summary (scripts/macosCiSummary.ts). Suites are left out: only tests count.
//   node --test --test-reporter=spec --test-reporter-destination=stdout \
//        --test-reporter=./dist/test/e2e-macos/resultsReporter.js --test-reporter-destination=results.jsonl …

interface TestEvent {
  type: string;
  data: {
    name: string;
    file?: string;
    skip?: boolean | string;
    details?: { type?: string; duration_ms?: number; error?: { message?: string; cause?: { message?: string } } };
  };
}

export default async function* resultsReporter(source: AsyncIterable<TestEvent>): AsyncGenerator<string> {
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { data } = event;
    if (data.details?.type === 'suite') continue;
    const error = data.details?.error;
    yield `${JSON.stringify({
      name: data.name,
      file: data.file,
      status: event.type === 'test:pass' ? 'pass' : 'fail',
      ...(data.skip !== undefined && data.skip !== false ? { skip: typeof data.skip === 'string' ? data.skip : 'skipped' } : {}),
      durationMs: data.details?.duration_ms,
      ...(error ? { error: error.cause?.message ?? error.message } : {}),
    })}\n`;
  }
}
