// Placeholder until the macOS backend lands (issue 5).
import type { Desktop } from '../../core/desktop.js';
import { TandemError } from '../../core/errors.js';

export async function createMacDesktop(): Promise<Desktop> {
  throw new TandemError('unsupported', 'The macOS backend is not built yet.');
}
