// A typed event emitter for the engine's feed events. Written here rather than using
// node:events because core stays platform-neutral and the map type checks every payload.
// A listener that throws never breaks the transaction that emitted the event: it is reported
// through `onListenerError` instead.

export class TypedEmitter<EventMap extends object> {
  private readonly listeners = new Map<keyof EventMap, Set<(payload: never) => void>>();

  constructor(private readonly onListenerError: (error: unknown) => void = () => {}) {}

  /** Subscribes; returns the unsubscribe function. */
  on<K extends keyof EventMap>(event: K, listener: (payload: EventMap[K]) => void): () => void {
    let set = this.listeners.get(event);
    if (!set) {
      set = new Set();
      this.listeners.set(event, set);
    }
    set.add(listener as (payload: never) => void);
    return () => {
      set.delete(listener as (payload: never) => void);
    };
  }

  emit<K extends keyof EventMap>(event: K, payload: EventMap[K]): void {
    const set = this.listeners.get(event);
    if (!set) return;
    for (const listener of [...set]) {
      try {
        (listener as (payload: EventMap[K]) => void)(payload);
      } catch (error) {
        this.onListenerError(error);
      }
    }
  }

  clear(): void {
    this.listeners.clear();
  }
}
