/**
 * The lexicon in the browser: the app's own public/lexicon/wordnet-3.0.wnlex (precached by the service worker, so
 * it needs no network after the first visit), fetched, gunzipped and installed once per thread — the scoring
 * worker, each pool worker, and the page for the Playground.
 */
import { installLexicon, lexicon, WordNet, type LexiconData } from '../core/lexicon/index.ts';

let loading: Promise<WordNet> | null = null;

export const lexiconUrl = (): string => new URL(`${import.meta.env.BASE_URL}lexicon/wordnet-3.0.wnlex`, self.location.origin).href;

/** Loads and installs the lexicon (once); rejects with why when it cannot be read. */
export function loadLexicon(url: string = lexiconUrl()): Promise<WordNet> {
  const have = lexicon();
  if (have) return Promise.resolve(have);
  loading ??= (async () => {
    const r = await fetch(url);
    if (!r.ok || !r.body) throw new Error(`the WordNet lexicon could not be loaded (${r.status} ${r.statusText} for ${url})`);
    const text = await new Response(r.body.pipeThrough(new DecompressionStream('gzip'))).text();
    const wn = new WordNet(JSON.parse(text) as LexiconData);
    installLexicon(wn);
    return wn;
  })().catch((e: unknown) => {
    loading = null;
    throw e;
  });
  return loading;
}
