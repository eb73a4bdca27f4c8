// What a snapshot remembers about accessible objects from one read to the next, by app (bus
// name) then object path. Toolkits never give a path to a second object (at-spi2-atk numbers
// objects from a counter; a restarted app has a new bus name), so a fact that lasts an object's
// life can be kept under its path. Bounded both ways: a long session meets many apps and objects.

/** Objects remembered per app: beyond it the app's memo starts over. */
export const OBJECT_MEMO_CAP = 50_000;
/** Apps whose memo is kept (the oldest is dropped first). */
const OBJECT_MEMO_APPS = 32;

export class AtspiObjectMemo<T> {
  private readonly apps = new Map<string, Map<string, T>>();

  get(busName: string, path: string): T | undefined {
    return this.apps.get(busName)?.get(path);
  }

  set(busName: string, path: string, fact: T): void {
    let known = this.apps.get(busName);
    if (!known) {
      if (this.apps.size >= OBJECT_MEMO_APPS) this.apps.delete(this.apps.keys().next().value!);
      known = new Map();
      this.apps.set(busName, known);
    }
    if (known.size >= OBJECT_MEMO_CAP) known.clear();
    known.set(path, fact);
  }
}
