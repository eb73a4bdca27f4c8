// One desktop action at a time for the whole process: the keyboard, the mouse and the focus
// are single resources shared with a person, so calls from every client wait in one FIFO line.
// A queued call whose signal aborts (its client went away) leaves the line without running.

import { TandemError } from './errors.js';

export class ActionQueue {
  private tail: Promise<void> = Promise.resolve();
  private waiting = 0;
  private running = false;

  /** Calls waiting for their turn (not counting the one running). */
  get pending(): number {
    return this.waiting;
  }

  get busy(): boolean {
    return this.running;
  }

  /**
   * Runs `task` after every task queued before it has settled. Rejects with
   * TandemError('cancelled') without running `task` when `signal` aborts while it waits.
   */
  run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const previous = this.tail;
    let finished!: () => void;
    this.tail = new Promise<void>((resolve) => {
      finished = resolve;
    });
    this.waiting++;
    return new Promise<T>((resolve, reject) => {
      let left = false;
      const leave = (): void => {
        if (left) return;
        left = true;
        this.waiting--;
        // Our slot frees as soon as the previous call settles: nobody waits for a cancelled call.
        void previous.then(finished);
        reject(new TandemError('cancelled', 'The call was cancelled while it waited for another desktop action to finish.', { by: 'caller' }));
      };
      if (signal?.aborted) {
        leave();
        return;
      }
      signal?.addEventListener('abort', leave, { once: true });
      void previous.then(async () => {
        if (left) return;
        left = true;
        signal?.removeEventListener('abort', leave);
        this.waiting--;
        this.running = true;
        try {
          resolve(await task());
        } catch (error) {
          reject(error);
        } finally {
          this.running = false;
          finished();
        }
      });
    });
  }
}
