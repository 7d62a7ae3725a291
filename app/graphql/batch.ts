// A small DataLoader: keys asked for while resolvers run are collected until the event loop turns
// (setImmediate: after every promise of the level has settled), then answered by one call for all.
export class Batch<V> {
  private keys: Set<string> | null = null;
  private answer: Promise<ReadonlyMap<string, V>> | null = null;

  constructor(private readonly run: (keys: string[]) => Promise<ReadonlyMap<string, V>>) {}

  load(key: string): Promise<V | undefined> {
    if (!this.answer) {
      const keys = (this.keys = new Set<string>());
      this.answer = new Promise((resolve, reject) =>
        setImmediate(() => {
          this.answer = null;
          this.keys = null;
          this.run([...keys]).then(resolve, reject);
        }),
      );
    }
    this.keys!.add(key);
    return this.answer.then((m) => m.get(key));
  }
}
