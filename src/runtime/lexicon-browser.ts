/**
 * The lexicon in the browser: lexicon/wordnet-3.0.wnlex, emitted by the build as an asset beside the code that
 * loads it (so its URL is relative to that code and the app runs from any folder; precached by the service worker,
 * so it needs no network after the first visit), fetched and gunzipped once per thread — the scoring worker, each
 * pool worker, and the page for the Playground and Learn — and handed to the metrics that read it. Its licence is
 * emitted with it.
 */
import { WordNet, type LexiconData } from '../core/lexicon/index.ts';
import lexiconFile from '../../lexicon/wordnet-3.0.wnlex?url';
// no-inline: a small file would become a data: URL, which a link cannot open.
import licenceFile from '../../lexicon/wordnet-3.0.LICENSE?url&no-inline';

let loading: Promise<WordNet> | null = null;

export const lexiconUrl = (): string => new URL(lexiconFile, self.location.href).href;
/** WordNet's licence, which must accompany the data. */
export const lexiconLicenceUrl = (): string => new URL(licenceFile, self.location.href).href;

/** This thread's lexicon, loaded once; rejects with why when it cannot be read (a later call tries again). */
export function loadLexicon(url: string = lexiconUrl()): Promise<WordNet> {
  loading ??= (async () => {
    const r = await fetch(url);
    if (!r.ok || !r.body) throw new Error(`the WordNet lexicon could not be loaded (${r.status} ${r.statusText} for ${url})`);
    const text = await new Response(r.body.pipeThrough(new DecompressionStream('gzip'))).text();
    return new WordNet(JSON.parse(text) as LexiconData);
  })().catch((e: unknown) => {
    loading = null;
    throw e;
  });
  return loading;
}
