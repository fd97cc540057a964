/**
 * Memo tables keyed by a place: two or three parts (a file's path or a node id, a definition index,
 * a name), each looked up in its own map. A key joined into one string (`${path}\0${from}\0${name}`)
 * is built and hashed anew on every lookup, and the resolver looks up millions of them; the parts
 * are strings and numbers that already exist, hashed once.
 */
export class Memo2<A, B, V> {
  private readonly root = new Map<A, Map<B, V>>();

  has(a: A, b: B): boolean {
    return this.root.get(a)?.has(b) ?? false;
  }

  get(a: A, b: B): V | undefined {
    return this.root.get(a)?.get(b);
  }

  set(a: A, b: B, value: V): void {
    let inner = this.root.get(a);
    if (!inner) this.root.set(a, inner = new Map());
    inner.set(b, value);
  }

  clear(): void {
    this.root.clear();
  }
}

export class Memo3<A, B, C, V> {
  private readonly root = new Map<A, Memo2<B, C, V>>();

  has(a: A, b: B, c: C): boolean {
    return this.root.get(a)?.has(b, c) ?? false;
  }

  get(a: A, b: B, c: C): V | undefined {
    return this.root.get(a)?.get(b, c);
  }

  set(a: A, b: B, c: C, value: V): void {
    let inner = this.root.get(a);
    if (!inner) this.root.set(a, inner = new Memo2());
    inner.set(b, c, value);
  }

  /** Drops every entry whose first part is `a`. */
  delete(a: A): void {
    this.root.delete(a);
  }

  clear(): void {
    this.root.clear();
  }
}
