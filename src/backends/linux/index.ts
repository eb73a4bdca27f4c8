// Placeholder until the Linux backend lands (issue 3): replaced by the X11 + AT-SPI desktop.
import type { Desktop } from '../../core/desktop.js';
import { TandemError } from '../../core/errors.js';
import type { BackendOptions } from '../index.js';

export async function createLinuxDesktop(_options: BackendOptions): Promise<Desktop> {
  throw new TandemError('unsupported', 'The Linux backend is not built yet.');
}
