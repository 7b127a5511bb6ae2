/**
 * Large text, for a projector or a zoomed screen: type a quarter larger and every reason wrapped instead of cut
 * with "…". Remembered in this browser (localStorage, a setting only) and carried in the address (`?text=large`),
 * so a link shown to a class opens the same way; the address wins over what was remembered.
 */
const KEY = 'verity.text';
const PARAM = 'text';

export const textSize = $state({ large: false });

function apply(): void {
  if (textSize.large) document.documentElement.dataset.text = 'large';
  else delete document.documentElement.dataset.text;
}

/** Reads the address, else what was remembered, and applies it (the app's start). */
export function startTextSize(): void {
  // Read once at the start: not state the page reacts to.
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  const asked = new URLSearchParams(location.search).get(PARAM);
  const kept = globalThis.localStorage?.getItem(KEY);
  textSize.large = asked !== null ? asked === 'large' : kept === 'large';
  apply();
  if (asked === null && textSize.large) setAddress();
}

/** Keeps the address's `text` in step (the hash, the page's route, stays as it is). */
function setAddress(): void {
  const url = new URL(location.href);
  if (textSize.large) url.searchParams.set(PARAM, 'large');
  else url.searchParams.delete(PARAM);
  history.replaceState(history.state, '', url);
}

export function setLargeText(on: boolean): void {
  textSize.large = on;
  try {
    globalThis.localStorage?.setItem(KEY, on ? 'large' : 'normal');
  } catch {
    // Storage refused (a private window's quota): the address still carries it.
  }
  apply();
  setAddress();
}
