// A small DataLoader: keys asked for while resolvers run are collected until the event loop turns
// (setImmediate: after every promise of the level has settled), then answered by one call for all.
// A key may come with an item (the parent row itself, when the answer needs more than its id).
export class Batch<V, I = undefined> {
  private items: Map<string, I> | null = null;
  private answer: Promise<ReadonlyMap<string, V>> | null = null;

  constructor(
    private readonly run: (keys: string[], items: ReadonlyMap<string, I>) => Promise<ReadonlyMap<string, V>>,
  ) {}

  /** The value of `key` once the batch ran (`missing` when the answer has none). */
  load(key: string, item?: I): Promise<V | undefined>;
  load(key: string, item: I | undefined, missing: V): Promise<V>;
  load(key: string, item?: I, missing?: V): Promise<V | undefined> {
    const answer = this.pending();
    this.items!.set(key, item as I);
    return answer.then((m) => m.get(key) ?? missing);
  }

  /** The answer for all of `keys` at once (one promise, not one per key): the read-ahead's way in. */
  loadAll(keys: Iterable<string>): Promise<ReadonlyMap<string, V>> {
    const answer = this.pending();
    for (const key of keys) this.items!.set(key, undefined as I);
    return answer;
  }

  /** The answer of the batch now collecting keys (started on first use). */
  private pending(): Promise<ReadonlyMap<string, V>> {
    if (!this.answer) {
      const items = (this.items = new Map<string, I>());
      this.answer = new Promise((resolve, reject) =>
        setImmediate(() => {
          this.answer = null;
          this.items = null;
          this.run([...items.keys()], items).then(resolve, reject);
        }),
      );
    }
    return this.answer;
  }
}
