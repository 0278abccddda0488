// Transactions of the in-memory store: every change records how to undo it, and a transaction that
// throws undoes them all, newest first, so nothing of it stays. Tables keep their rows in the order
// they were first written (a row's `seq`), as a database's row numbers do.

/** The undo steps of the transaction under way. */
export class Journal {
  private steps: Array<() => void> | null = null;

  /** Runs `work` as one transaction (inside one already under way, as part of it). */
  run<T>(work: () => T): T {
    if (this.steps !== null) return work();
    this.steps = [];
    try {
      const result = work();
      this.steps = null;
      return result;
    } catch (error) {
      const steps = this.steps ?? [];
      // Undoing records nothing: the journal is closed first.
      this.steps = null;
      for (let index = steps.length - 1; index >= 0; index -= 1) steps[index]!();
      throw error;
    }
  }

  /** Records how to undo a change just made. */
  onUndo(step: () => void): void {
    this.steps?.push(step);
  }

  /** Sets a map entry, undoably. */
  set<K, V>(map: Map<K, V>, key: K, value: V): void {
    const had = map.has(key);
    const old = map.get(key);
    map.set(key, value);
    this.onUndo(() => (had ? map.set(key, old as V) : map.delete(key)));
  }

  /** Deletes a map entry, undoably. */
  delete<K, V>(map: Map<K, V>, key: K): void {
    if (!map.has(key)) return;
    const old = map.get(key) as V;
    map.delete(key);
    this.onUndo(() => map.set(key, old));
  }
}

/** The key of a row made of several values (any text in any of them). */
export const keyOf = (...parts: ReadonlyArray<string | number | null>): string => JSON.stringify(parts);

/** A stored row: `seq` numbers rows in the order they were first written. */
export interface Row {
  seq: number;
}

/** Rows by key and by seq; read back in seq order. */
export class Table<R extends Row> {
  private readonly rows = new Map<string, R>();
  private readonly bySeq = new Map<number, R>();
  // An undone deletion puts a row back at the end of the map: the next read puts it in its place.
  private unordered = false;

  constructor(private readonly journal: Journal) {}

  get(key: string): R | undefined {
    return this.rows.get(key);
  }

  atSeq(seq: number): R | undefined {
    return this.bySeq.get(seq);
  }

  has(key: string): boolean {
    return this.rows.has(key);
  }

  get size(): number {
    return this.rows.size;
  }

  /** Adds or replaces the row under `key` (a replaced row keeps its place). */
  put(key: string, row: R): void {
    const old = this.rows.get(key);
    this.journal.set(this.rows, key, row);
    if (old !== undefined) this.journal.delete(this.bySeq, old.seq);
    this.journal.set(this.bySeq, row.seq, row);
  }

  /** Adds a row under a key the table does not hold yet; a key it holds throws what `taken` makes. */
  insert(key: string, row: R, taken: () => Error): void {
    if (this.rows.has(key)) throw taken();
    this.put(key, row);
  }

  /** Deletes the row under `key`, returning it (undefined when there was none). */
  delete(key: string): R | undefined {
    const old = this.rows.get(key);
    if (old === undefined) return undefined;
    this.journal.delete(this.rows, key);
    this.journal.delete(this.bySeq, old.seq);
    this.journal.onUndo(() => (this.unordered = true));
    return old;
  }

  /** Deletes every row `pick` picks; returns how many. */
  deleteWhere(pick: (row: R) => boolean): number {
    let count = 0;
    for (const [key, row] of [...this.rows]) {
      if (!pick(row)) continue;
      this.delete(key);
      count += 1;
    }
    return count;
  }

  /** Every row, in seq order. */
  values(): R[] {
    if (this.unordered) {
      // In place: undo steps of a transaction still under way hold this map.
      const sorted = [...this.rows].sort(([, a], [, b]) => a.seq - b.seq);
      this.rows.clear();
      for (const [key, row] of sorted) this.rows.set(key, row);
      this.unordered = false;
    }
    return [...this.rows.values()];
  }
}
