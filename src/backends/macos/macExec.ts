// Runs a macOS command-line tool (`open`, `screencapture`) without a shell, with a timeout; a
// failure carries the tool's own stderr, which is what the model and the person need to read.

import { execFile } from 'node:child_process';

export function runTool(file: string, args: readonly string[], timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(file, [...args], { timeout: timeoutMs }, (error, _stdout, stderr) => {
      if (error) reject(new Error(String(stderr || error.message).trim()));
      else resolve();
    });
  });
}
