/**
 * WordNet 3.0 in the embedded judge: synonym sets, hypernyms, antonyms and base forms, read from the compact
 * lexicon scripts/lexicon/build.ts writes (lexicon/wordnet-3.0.wnlex). Pure: the runtime loads the file
 * (runtime/lexicon-node.ts, lexicon-browser.ts) and the metrics that read it are built with it (createMetric).
 *
 * `synsets(word)` and `morphy` reproduce nltk 3.8's WordNetCorpusReader (exception lists, then the detachment
 * rules, checked against the index), so METEOR's synonym stage matches nltk's `meteor_score` with WordNet 3.0.
 */
import { boundedMemo } from '../util/memo.ts';

/** The file's content (scripts/lexicon/build.ts). */
export interface LexiconData {
  format: 1;
  source: string;
  /** One character per synset: n, v, a, s (satellite adjective), r. */
  pos: string;
  /**
   * The tables below are single strings, one line per entry, read in place (line offsets, binary search): a few
   * large strings parse in a fraction of the time of 400,000 small ones, which keeps loading well under 300 ms.
   */
  /** Per synset (a line each), its lemma names joined by "|" (as in the data files: case kept, "_" between words). */
  names: string;
  /** Per synset, its hypernyms and instance hypernyms (","-separated ids). */
  hyper: string;
  /** Per synset, antonym pointers as ","-separated triples: source word number, target synset, target word number. */
  antonyms: string;
  /** Per part of speech (n, v, a, r): "lemma\tid,id" lines sorted by lemma, ids in sense order. */
  index: Record<WnPos, string>;
  /** Per part of speech: the exception list's lines ("inflected base base…"). */
  exceptions: Record<WnPos, string>;
}

export type WnPos = 'n' | 'v' | 'a' | 'r';
export const POS_LIST: readonly WnPos[] = ['n', 'v', 'a', 'r'];

/** nltk's MORPHOLOGICAL_SUBSTITUTIONS (WordNet's morphy detachment rules). */
const SUBSTITUTIONS: Record<WnPos, readonly (readonly [string, string])[]> = {
  n: [
    ['s', ''],
    ['ses', 's'],
    ['ves', 'f'],
    ['xes', 'x'],
    ['zes', 'z'],
    ['ches', 'ch'],
    ['shes', 'sh'],
    ['men', 'man'],
    ['ies', 'y'],
  ],
  v: [
    ['s', ''],
    ['ies', 'y'],
    ['es', 'e'],
    ['es', ''],
    ['ed', 'e'],
    ['ed', ''],
    ['ing', 'e'],
    ['ing', ''],
  ],
  a: [
    ['er', ''],
    ['est', ''],
    ['er', 'e'],
    ['est', 'e'],
  ],
  r: [],
};

/** A string of lines, read by line number without splitting it. */
class Lines {
  private readonly starts: Int32Array;
  constructor(readonly text: string) {
    let n = 1;
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
    this.starts = new Int32Array(n + 1);
    let k = 1;
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) this.starts[k++] = i + 1;
    this.starts[n] = text.length + 1;
  }
  get length(): number {
    return this.starts.length - 1;
  }
  line(i: number): string {
    return this.text.slice(this.starts[i]!, this.starts[i + 1]! - 1);
  }
  /** In "key\tvalue" lines sorted by key: the value of `key`, or undefined. */
  lookup(key: string): string | undefined {
    let lo = 0;
    let hi = this.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const s = this.starts[mid]!;
      const tab = this.text.indexOf('\t', s);
      const k = this.text.slice(s, tab);
      if (k === key) return this.text.slice(tab + 1, this.starts[mid + 1]! - 1);
      if (k < key) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }
}

export class WordNet {
  readonly source: string;
  private readonly posOf: string;
  private readonly names: Lines;
  private readonly index: Record<WnPos, Lines>;
  private readonly exceptions: Record<WnPos, Map<string, string[]>>;
  private readonly hyperRaw: Lines;
  private readonly antonymRaw: Lines;
  private readonly depths = new Map<number, number>();
  // The signals ask the same words, hypernyms and distances row after row (a gold's on every row of its question,
  // common nouns in every answer): each answer is computed once. The database is fixed, so these never go stale;
  // callers must not mutate what they return.
  private readonly hyperCache = new Map<number, number[]>();
  /** Keyed "<parts of speech> <lemma>" ("n cow"): the parts of speech hold no space. */
  private readonly synsetCache = boundedMemo((key: string) => {
    const at = key.indexOf(' ');
    return this.lookupSynsets(key.slice(at + 1), key.slice(0, at));
  });
  private readonly ancestorCache = boundedMemo((key: number) => this.ancestorSteps(Math.floor(key / 64), key % 64));

  constructor(data: LexiconData) {
    if (data.format !== 1) throw new Error(`lexicon format ${String(data.format)} is not supported`);
    this.source = data.source;
    this.posOf = data.pos;
    this.names = new Lines(data.names);
    this.hyperRaw = new Lines(data.hyper);
    this.antonymRaw = new Lines(data.antonyms);
    this.index = { n: new Lines(data.index.n), v: new Lines(data.index.v), a: new Lines(data.index.a), r: new Lines(data.index.r) };
    const exceptions = {} as Record<WnPos, Map<string, string[]>>;
    for (const p of POS_LIST) {
      const e = new Map<string, string[]>();
      for (const line of data.exceptions[p].split('\n')) {
        const [form, ...bases] = line.split(' ');
        if (form && bases.length) e.set(form, bases);
      }
      exceptions[p] = e;
    }
    this.exceptions = exceptions;
  }

  /** Synsets in the database. */
  get size(): number {
    return this.posOf.length;
  }

  /** nltk `_morphy(form, pos)`: the base forms of `form` (lowercase, "_" between words) that the index holds. */
  morphy(form: string, pos: WnPos): string[] {
    const index = this.index[pos];
    const filter = (forms: readonly string[]) => {
      const out: string[] = [];
      for (const f of forms) if (!out.includes(f) && index.lookup(f) !== undefined) out.push(f);
      return out;
    };
    const rules = SUBSTITUTIONS[pos];
    const apply = (forms: readonly string[]) => {
      const out: string[] = [];
      for (const f of forms) for (const [old, repl] of rules) if (f.endsWith(old)) out.push(f.slice(0, f.length - old.length) + repl);
      return out;
    };
    const exc = this.exceptions[pos].get(form);
    if (exc) return filter([form, ...exc]);
    let forms = apply([form]);
    const first = filter([form, ...forms]);
    if (first.length) return first;
    while (forms.length) {
      forms = apply(forms);
      const found = filter(forms);
      if (found.length) return found;
    }
    return [];
  }

  /** nltk `wordnet.synsets(word, pos)`: lowercased, each base form's synsets in sense order, parts of speech n, v, a, r. */
  synsets(word: string, pos: readonly WnPos[] = POS_LIST): number[] {
    return this.synsetCache(`${pos.join('')} ${word.toLowerCase()}`);
  }

  private lookupSynsets(lemma: string, pos: string): number[] {
    const out: number[] = [];
    for (const p of pos as Iterable<WnPos>)
      for (const form of this.morphy(lemma, p)) for (const id of this.index[p].lookup(form)!.split(',')) out.push(Number(id));
    return out;
  }

  /** The lemma names of a synset, as nltk's `lemma.name()` gives them ("Balaenoptera_musculus"). */
  lemmaNames(synset: number): string[] {
    return this.names.line(synset).split('|');
  }

  /** n, v, a, s or r. */
  pos(synset: number): string {
    return this.posOf[synset]!;
  }

  /** Hypernyms and instance hypernyms. */
  hypernyms(synset: number): number[] {
    let out = this.hyperCache.get(synset);
    if (out === undefined) {
      const raw = this.hyperRaw.line(synset);
      out = raw ? raw.split(',').map(Number) : [];
      this.hyperCache.set(synset, out);
    }
    return out;
  }

  /** The lemmas of other synsets that are antonyms of this synset's lemma `name` (any lemma when absent). */
  antonyms(synset: number, name?: string): { synset: number; name: string }[] {
    const raw = this.antonymRaw.line(synset);
    if (!raw) return [];
    const t = raw.split(',').map(Number);
    const names = this.lemmaNames(synset);
    const out: { synset: number; name: string }[] = [];
    for (let i = 0; i + 2 < t.length; i += 3) {
      const from = names[t[i]! - 1];
      if (name !== undefined && from?.toLowerCase() !== name.toLowerCase()) continue;
      out.push({ synset: t[i + 1]!, name: this.lemmaNames(t[i + 1]!)[t[i + 2]! - 1]! });
    }
    return out;
  }

  /** Shortest distance from a root of the hypernym graph (entity = 0). */
  depth(synset: number): number {
    const known = this.depths.get(synset);
    if (known !== undefined) return known;
    const up = this.hypernyms(synset);
    this.depths.set(synset, 0); // a cycle (none in WordNet 3.0) ends here
    const d = up.length === 0 ? 0 : 1 + Math.min(...up.map((h) => this.depth(h)));
    this.depths.set(synset, d);
    return d;
  }

  /** Steps from `narrow` up to `broad` through hypernyms (1 = a direct hypernym), or null within `limit` steps. */
  hypernymDistance(narrow: number, broad: number, limit = 12): number | null {
    if (limit < 1) return null;
    return this.ancestorCache(narrow * 64 + Math.min(Math.floor(limit), 63)).get(broad) ?? null;
  }

  /** Every synset up to `limit` hypernym steps above `narrow`, with the fewest steps to it (breadth first). */
  private ancestorSteps(narrow: number, limit: number): Map<number, number> {
    const steps = new Map<number, number>();
    let frontier = [narrow];
    const seen = new Set(frontier);
    for (let step = 1; step <= limit && frontier.length; step++) {
      const next: number[] = [];
      for (const s of frontier)
        for (const h of this.hypernyms(s)) {
          if (!steps.has(h)) steps.set(h, step);
          if (!seen.has(h)) {
            seen.add(h);
            next.push(h);
          }
        }
      frontier = next;
    }
    return steps;
  }
}
