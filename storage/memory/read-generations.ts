// A memory store's read generations: how many changes it has taken, which kept list pages, entity tags and
// paused scans compare. A resource no other resource's answer shows has a generation of its own, so that
// its writes leave the others' where they were: a token's last_used note, written once a minute per token
// in use, would otherwise drop every kept list page.
const OWN_GENERATION: ReadonlySet<string> = new Set(['token']);

export class ReadGenerations {
  /** Every change taken: a paused scan sees whether the data moved under it. */
  private all = 0;
  /** The changes of a resource other answers show (anything but OWN_GENERATION's). */
  private shown = 0;

  /** A change taken: a batch of these resources' ops, or anything (a reload, mirrored rows) when none is said. */
  moved(resources?: readonly { readonly resource: string }[]): void {
    this.all++;
    if (!resources || resources.some((op) => !OWN_GENERATION.has(op.resource))) this.shown++;
  }

  /** Every change taken. */
  get any(): number {
    return this.all;
  }

  /** The generation a read of `resource` is answered at. */
  of(resource?: string): number {
    return resource !== undefined && OWN_GENERATION.has(resource) ? this.all : this.shown;
  }
}
