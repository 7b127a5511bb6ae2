/**
 * The ids seen so far, in ~11 bytes per id whatever their length (a streamed run of millions of rows keeps
 * no strings): 52-bit hashes (two FNV-1a variants) in an open-addressing table. Two different ids share a
 * hash with probability about n²/2⁵³ — about 1 in 1,000 for 3 million rows — and would then be reported as
 * a duplicate, a warning only.
 */
export class IdSet {
  private table = new Float64Array(1024);
  private size = 0;

  private static hash(s: string): number {
    let a = 0x811c9dc5;
    let b = 0x01000193 ^ s.length;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x5bd1e995) ^ (b >>> 15);
    }
    // 32 + 20 bits; 0 marks an empty slot.
    return (a >>> 0) * 0x100000 + (b >>> 12) || 1;
  }

  /** Adds an id; true when it (or an id with the same hash) was already there. */
  add(id: string): boolean {
    if ((this.size + 1) * 4 > this.table.length * 3) this.grow();
    return this.put(this.table, IdSet.hash(id));
  }

  private put(t: Float64Array, h: number): boolean {
    const mask = t.length - 1;
    for (let i = h % t.length; ; i = (i + 1) & mask) {
      if (t[i] === h) return true;
      if (t[i] === 0) {
        t[i] = h;
        if (t === this.table) this.size++;
        return false;
      }
    }
  }

  private grow(): void {
    const old = this.table;
    const t = new Float64Array(old.length * 2);
    for (const h of old) if (h !== 0) this.put(t, h);
    this.table = t;
  }
}
