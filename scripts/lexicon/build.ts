/**
 * Builds Verity's lexicon from a WordNet 3.0 database (Debian's `wordnet-base`: /usr/share/wordnet, or
 * $WORDNET_DIR) into lexicon/wordnet-3.0.wnlex: gzipped JSON holding what the embedded metrics use —
 * every synset's part of speech and lemma names (case kept, adjective markers dropped, as nltk reads them), its
 * hypernyms (instance hypernyms too), its lemmas' antonyms, the index (lemma → synsets in sense order), and the
 * exception lists morphy reads. Deterministic: the same database gives the same bytes.
 *
 *   npm run lexicon            (needs: apt-get install wordnet-base)
 *
 * The WordNet licence (a copy must accompany the data) is written beside it as wordnet-3.0.LICENSE.
 */
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { LexiconData } from '../../src/core/lexicon/wordnet.ts';

const DIR = process.env.WORDNET_DIR ?? '/usr/share/wordnet';
/** Where it is written ($LEXICON_OUT: a test checks that a fresh build equals the committed file). */
const OUT = process.env.LEXICON_OUT
  ? new URL(`file://${process.env.LEXICON_OUT.replace(/\/?$/, '/')}`)
  : new URL('../../lexicon/', import.meta.url);
const POS_FILES = [
  ['n', 'noun'],
  ['v', 'verb'],
  ['a', 'adj'],
  ['r', 'adv'],
] as const;

if (!existsSync(join(DIR, 'data.noun'))) {
  console.error(`no WordNet database in ${DIR}: apt-get install wordnet-base (or set WORDNET_DIR)`);
  process.exit(2);
}

const lines = (file: string) =>
  readFileSync(join(DIR, file), 'latin1')
    .split('\n')
    // The licence header's lines start with two spaces.
    .filter((l) => l && !l.startsWith('  '));

const id = new Map<string, number>(); // "pos:offset" → synset id (data file order, nouns first)
const pos: string[] = [];
const names: string[] = [];
const rawPointers: [number, string, string, string, string][] = []; // [from, symbol, offset, pos, source/target]

for (const [p, file] of POS_FILES) {
  for (const line of lines(`data.${file}`)) {
    const f = line
      .slice(0, line.indexOf(' | ') >= 0 ? line.indexOf(' | ') : line.length)
      .trim()
      .split(' ');
    const [offset, , ssType, wCnt] = f;
    const n = parseInt(wCnt!, 16);
    const words: string[] = [];
    for (let k = 0; k < n; k++) words.push(f[4 + 2 * k]!.replace(/\((a|p|ip)\)$/, ''));
    const i = pos.length;
    id.set(`${p}:${offset}`, i);
    pos.push(ssType!);
    names.push(words.join('|'));
    const at = 4 + 2 * n;
    const pCnt = parseInt(f[at]!, 10);
    for (let k = 0; k < pCnt; k++) {
      const [symbol, target, tpos, st] = f.slice(at + 1 + 4 * k, at + 5 + 4 * k);
      if (symbol === '@' || symbol === '@i' || symbol === '!') rawPointers.push([i, symbol, target!, tpos!, st!]);
    }
  }
}

const key = (p: string, offset: string) => `${p === 's' ? 'a' : p}:${offset}`;
const hyper: number[][] = pos.map(() => []);
const antonyms: number[][] = pos.map(() => []);
for (const [from, symbol, offset, tpos, st] of rawPointers) {
  const to = id.get(key(tpos, offset));
  if (to === undefined) throw new Error(`pointer to ${tpos} ${offset} not found`);
  if (symbol === '!') antonyms[from]!.push(parseInt(st.slice(0, 2), 16), to, parseInt(st.slice(2), 16));
  else hyper[from]!.push(to);
}

const index = {} as LexiconData['index'];
for (const [p, file] of POS_FILES) {
  const out: string[] = [];
  for (const line of lines(`index.${file}`)) {
    const f = line.trim().split(' ');
    const [lemma, , synsetCnt] = f;
    const offsets = f.slice(f.length - parseInt(synsetCnt!, 10));
    out.push(`${lemma!}\t${offsets.map((o) => id.get(`${p}:${o}`)!).join(',')}`);
  }
  // Sorted by UTF-16 code unit, as the reader's binary search compares.
  out.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  index[p] = out.join('\n');
}

const exceptions = {} as LexiconData['exceptions'];
for (const [p, file] of POS_FILES) exceptions[p] = lines(`${file}.exc`).join('\n');

const data: LexiconData = {
  format: 1,
  source: 'WordNet 3.0, Princeton University (Debian wordnet-base); licence in wordnet-3.0.LICENSE',
  pos: pos.join(''),
  names: names.join('\n'),
  hyper: hyper.map((h) => h.join(',')).join('\n'),
  antonyms: antonyms.map((a) => a.join(',')).join('\n'),
  index,
  exceptions,
};

mkdirSync(OUT, { recursive: true });
const json = JSON.stringify(data);
const gz = gzipSync(json, { level: 9 });
writeFileSync(new URL('wordnet-3.0.wnlex', OUT), gz);
const licence = readFileSync('/usr/share/doc/wordnet-base/copyright', 'utf8');
writeFileSync(new URL('wordnet-3.0.LICENSE', OUT), licence);
console.log(`${pos.length} synsets; ${(json.length / 1e6).toFixed(1)} MB JSON, ${(gz.length / 1e6).toFixed(2)} MB gzipped`);
