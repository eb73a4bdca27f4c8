// Ownership discipline for CoreFoundation objects. Everything a Copy/Create call returns is
// handed to a CFScope, which releases each object exactly once when the scope closes — on
// success and on throw alike. NULL is never adopted (CFRelease(NULL) crashes), an object is
// never adopted twice, and `keep()` moves one out of the scope for callers that hold it longer
// (then they must release it themselves, or adopt it into another scope).

import type { CoreFoundationApi, NullableRef, Ref } from './macNative.js';

export class CFScope {
  private readonly owned = new Set<Ref>();
  private closed = false;

  constructor(private readonly cf: Pick<CoreFoundationApi, 'CFRelease'>) {}

  /** Takes ownership of a +1 reference. Returns it (or null for null, which is not owned). */
  adopt<T extends NullableRef>(ref: T): T {
    if (this.closed) throw new Error('CFScope: adopt() after close()');
    if (ref === null || ref === 0n) return ref;
    if (this.owned.has(ref as Ref)) throw new Error('CFScope: the same reference was adopted twice (double release avoided)');
    this.owned.add(ref as Ref);
    return ref;
  }

  /** Adopts a +1 reference that must not be null; throws `what` otherwise. */
  adoptNonNull(ref: NullableRef, what: string): Ref {
    if (ref === null || ref === 0n) throw new Error(`${what} returned NULL`);
    return this.adopt(ref);
  }

  /** Gives up ownership: the caller now owns the reference. */
  keep(ref: Ref): Ref {
    if (!this.owned.delete(ref)) throw new Error('CFScope: keep() of a reference this scope does not own');
    return ref;
  }

  get size(): number {
    return this.owned.size;
  }

  /** Releases everything still owned, once. Idempotent. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    const refs = [...this.owned];
    this.owned.clear();
    let firstError: unknown;
    for (const ref of refs.reverse()) {
      try {
        this.cf.CFRelease(ref);
      } catch (error) {
        firstError ??= error;
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
