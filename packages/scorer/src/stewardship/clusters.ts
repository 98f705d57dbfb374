import type { TokenTransfer } from "./chain-data";

/**
 * Groups addresses linked by plain token transfers (neither side a pool nor excluded) into
 * components: the "cluster" of every piece of evidence is built from these.
 */
export class TransferGraph {
  private readonly parent = new Map<string, string>();

  constructor(transfers: readonly TokenTransfer[], skip: ReadonlySet<string>) {
    for (const t of transfers) if (!skip.has(t.from) && !skip.has(t.to)) this.union(t.from, t.to);
  }

  /** The component's representative (the smallest address in it, so results never depend on order). */
  root(address: string): string {
    let node = address;
    while (this.parent.has(node) && this.parent.get(node) !== node) node = this.parent.get(node)!;
    // Path compression: point every address on the way straight at the root.
    for (let at = address; at !== node; ) {
      const next = this.parent.get(at)!;
      this.parent.set(at, node);
      at = next;
    }
    return node;
  }

  private union(a: string, b: string): void {
    for (const x of [a, b]) if (!this.parent.has(x)) this.parent.set(x, x);
    const ra = this.root(a);
    const rb = this.root(b);
    if (ra === rb) return;
    if (ra < rb) this.parent.set(rb, ra);
    else this.parent.set(ra, rb);
  }

  /**
   * Groups items (each touching one or more addresses of one component) by component. A group's
   * cluster is every address its items touch, sorted; groups are sorted by their first address.
   */
  groupBy<T>(
    items: readonly T[],
    addressesOf: (item: T) => readonly string[],
  ): { cluster: string[]; items: T[] }[] {
    const byRoot = new Map<string, { addresses: Set<string>; items: T[] }>();
    for (const item of items) {
      const addresses = addressesOf(item);
      const root = this.root(addresses[0]!);
      let group = byRoot.get(root);
      if (!group) byRoot.set(root, (group = { addresses: new Set(), items: [] }));
      for (const a of addresses) group.addresses.add(a);
      group.items.push(item);
    }
    return [...byRoot.values()]
      .map((g) => ({ cluster: [...g.addresses].sort(), items: g.items }))
      .sort((x, y) => (x.cluster[0]! < y.cluster[0]! ? -1 : 1));
  }
}
