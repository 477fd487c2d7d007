// A least-recently-used cache bounded by a byte count the caller gives per
// value. A linked list keeps the order: a Map used as the list (delete + set
// to touch, first key to evict) makes every eviction skip the holes earlier
// deletes left at the front of V8's table, which turned reading every body of
// a 100 MB session into seconds of hole-skipping.

interface Node<V> {
  key: number;
  value: V;
  bytes: number;
  older: Node<V> | null;
  newer: Node<V> | null;
}

export class ByteBoundedLru<V> {
  private readonly nodes = new Map<number, Node<V>>();
  private oldest: Node<V> | null = null;
  private newest: Node<V> | null = null;
  private held = 0;

  constructor(private readonly maxBytes: number) {}

  /** Bytes of the values held now. */
  get heldBytes(): number {
    return this.held;
  }

  get size(): number {
    return this.nodes.size;
  }

  /** The value, made the most recently used. */
  get(key: number): V | undefined {
    const node = this.nodes.get(key);
    if (node === undefined) return undefined;
    if (node !== this.newest) {
      this.unlink(node);
      this.append(node);
    }
    return node.value;
  }

  /** Holds `value` as the most recently used, evicting the least recently used beyond the bound. */
  set(key: number, value: V, bytes: number): void {
    const old = this.nodes.get(key);
    if (old !== undefined) {
      this.unlink(old);
      this.held -= old.bytes;
    }
    const node: Node<V> = { key, value, bytes, older: null, newer: null };
    this.nodes.set(key, node);
    this.append(node);
    this.held += bytes;
    while (this.held > this.maxBytes && this.oldest !== null) {
      const evicted = this.oldest;
      this.unlink(evicted);
      this.nodes.delete(evicted.key);
      this.held -= evicted.bytes;
    }
  }

  private append(node: Node<V>): void {
    node.older = this.newest;
    node.newer = null;
    if (this.newest !== null) this.newest.newer = node;
    else this.oldest = node;
    this.newest = node;
  }

  private unlink(node: Node<V>): void {
    if (node.older !== null) node.older.newer = node.newer;
    else this.oldest = node.newer;
    if (node.newer !== null) node.newer.older = node.older;
    else this.newest = node.older;
    node.older = null;
    node.newer = null;
  }
}
