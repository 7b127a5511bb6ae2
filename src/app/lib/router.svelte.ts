/** Hash routing for the four pages: no library needed, and deep links (`#/learn`) work from a static host. */
export const PAGES = [
  { path: 'score', title: 'Score' },
  { path: 'playground', title: 'Playground' },
  { path: 'learn', title: 'Learn' },
  { path: 'models', title: 'Models' },
] as const;
export type PagePath = (typeof PAGES)[number]['path'];

/**
 * The page a hash names: `#/learn` (or `#learn`, `#/learn?x`) → learn, none or an unknown route → score.
 * A hash that is not a route but an in-page anchor (`#main`, `#learn-metric-bleu`) names no page: null, so
 * following it keeps the page that is open. An anchor not on the page (a link opened afresh) whose id starts with a
 * page's path (`#learn-cap-citation`) opens that page.
 */
export function pageOf(hash: string, anchorExists: (id: string) => boolean = () => false): PagePath | null {
  const h = hash.replace(/^#\/?/, '').split(/[?/]/)[0] ?? '';
  const page = PAGES.find((p) => p.path === h)?.path;
  if (page) return page;
  const id = decoded(hash.slice(1));
  if (!hash.startsWith('#/') && h && id !== null && anchorExists(id)) return null;
  // An anchor of a page not shown yet (a footnote link reloaded): its id starts with the page's path.
  const owner = PAGES.find((p) => h.startsWith(`${p.path}-`))?.path;
  return owner ?? 'score';
}

/** A hash's text decoded, or null when it is not valid percent-encoding (a link cut or typed by hand). */
function decoded(s: string): string | null {
  try {
    return decodeURIComponent(s);
  } catch {
    return null;
  }
}

/** The line the page shows for a link it could not read, or null. */
export const badLinkNote = (hash: string): string | null =>
  hash.length > 1 && decoded(hash.slice(1)) === null
    ? `The link's address after "#" could not be read (${hash.slice(0, 40)}), so the Score page is open.`
    : null;

const inDocument = (id: string) => globalThis.document?.getElementById(id) != null;

export const route = $state({
  page: pageOf(globalThis.location?.hash ?? '') ?? 'score',
  note: badLinkNote(globalThis.location?.hash ?? ''),
});

export function startRouter(): () => void {
  const on = () => {
    const page = pageOf(location.hash, inDocument);
    if (page) route.page = page;
    route.note = badLinkNote(location.hash);
  };
  addEventListener('hashchange', on);
  return () => removeEventListener('hashchange', on);
}
