// Ownership discipline for CoreFoundation objects. Everything a Copy/Create call returns is
// handed to a CFScope, which releases it when the scope closes — on success and on throw alike.
// The scope counts references, not pointers: CoreFoundation hands out the same pointer again
// for immutable values it interns or caches (kCFBooleanTrue, short tagged CFStrings and
// CFNumbers on Apple Silicon, constant strings), each time with its own +1, so the same pointer
// adopted n times is released n times. NULL is never adopted (CFRelease(NULL) crashes), and
// `keep()` moves one reference out of the scope for callers that hold it longer (then they must
// release it themselves, or adopt it into another scope).

import type { CoreFoundationApi, NullableRef, Ref } from './macNative.js';

export class CFScope {
  /** Pointer → references owned (each a +1 to release). */
  private readonly owned = new Map<Ref, number>();
  private closed = false;

  constructor(private readonly cf: Pick<CoreFoundationApi, 'CFRelease'>) {}

  /** Takes ownership of one +1 reference. Returns it (or null for null, which is not owned). */
  adopt<T extends NullableRef>(ref: T): T {
    if (this.closed) throw new Error('CFScope: adopt() after close()');
    if (ref === null || ref === 0n) return ref;
    this.owned.set(ref as Ref, (this.owned.get(ref as Ref) ?? 0) + 1);
    return ref;
  }

  /** Adopts a +1 reference that must not be null; throws `what` otherwise. */
  adoptNonNull(ref: NullableRef, what: string): Ref {
    if (ref === null || ref === 0n) throw new Error(`${what} returned NULL`);
    return this.adopt(ref);
  }

  /** Gives up one reference: the caller now owns it. */
  keep(ref: Ref): Ref {
    const count = this.owned.get(ref);
    if (count === undefined) throw new Error('CFScope: keep() of a reference this scope does not own');
    if (count === 1) this.owned.delete(ref);
    else this.owned.set(ref, count - 1);
    return ref;
  }

  /** References owned (a pointer adopted twice counts twice). */
  get size(): number {
    let total = 0;
    for (const count of this.owned.values()) total += count;
    return total;
  }

  /** Releases everything still owned, once. Idempotent. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    const refs = [...this.owned];
    this.owned.clear();
    let firstError: unknown;
    for (const [ref, count] of refs.reverse()) {
      for (let i = 0; i < count; i++) {
        try {
          this.cf.CFRelease(ref);
        } catch (error) {
          firstError ??= error;
        }
      }
    }
    if (firstError) throw firstError;
  }
}

/** Runs `body` with a fresh scope and closes it afterwards. */
export function withCFScope<T>(cf: Pick<CoreFoundationApi, 'CFRelease'>, body: (scope: CFScope) => T): T {
  const scope = new CFScope(cf);
  try {
    return body(scope);
  } finally {
    scope.close();
  }
}
