/**
 * The lexicon in Node (the CLI, its scoring thread, tests): lexicon/wordnet-3.0.wnlex read once, found
 * upward from this module (the sources, or a bundle of them under node_modules/.cache), or at $VERITY_LEXICON.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { WordNet, type LexiconData } from '../core/lexicon/index.ts';

export const LEXICON_FILE = 'lexicon/wordnet-3.0.wnlex';

function find(): string | null {
  if (process.env.VERITY_LEXICON) return process.env.VERITY_LEXICON;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 8; i++) {
    const p = join(dir, LEXICON_FILE);
    if (existsSync(p)) return p;
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return null;
}

/** Reads and parses the lexicon file. */
export function readLexicon(path: string): WordNet {
  return new WordNet(JSON.parse(gunzipSync(readFileSync(path)).toString('utf8')) as LexiconData);
}

let loaded: WordNet | null = null;

/** This thread's lexicon, read once; throws when the file is missing (a broken install). */
export function nodeLexicon(): WordNet {
  if (loaded) return loaded;
  const path = find();
  if (!path) throw new Error(`the WordNet lexicon (${LEXICON_FILE}) is missing: reinstall Verity, or run npm run lexicon`);
  loaded = readLexicon(path);
  return loaded;
}
