/**
 * New versions of the app while a tab stays open. The service worker (vite-plugin-pwa, `registerType: 'prompt'`)
 * installs a new version in the background and waits; this module looks for one every hour and whenever the tab
 * comes back into view (a hash-routed page never navigates, so the browser's own check on navigation never runs),
 * announces it, and takes it up on reload: the banner's button, or any reload of the page. Nothing switches under
 * a page that is in use, so a run in progress keeps the code it started with.
 */
import { registerSW } from 'virtual:pwa-register';

const CHECK_EVERY_MS = 60 * 60 * 1000;
/** How often, and how many times, a version asked to take over is asked again while it still waits. */
const ASK_AGAIN_MS = 2000;
const ASK_AT_MOST = 15;

export const update = $state({ ready: false });

let apply: ((reload?: boolean) => Promise<void>) | null = null;
let requested = false;
let registration: ServiceWorkerRegistration | undefined;
let asking: ReturnType<typeof setInterval> | undefined;

/** Activates the waiting version and reloads the page into it. */
export function takeUpdate(): void {
  requested = true;
  void apply?.(true);
  askAgain();
}

/**
 * Asks the waiting version again, every few seconds while it still waits: the request is a one-off message, and
 * in one CI run a reload into a waiting version stayed on the old one (skipWaiting() twice is harmless).
 */
function askAgain(): void {
  if (asking !== undefined) return;
  let asked = 0;
  asking = setInterval(() => {
    const waiting = registration?.waiting;
    if (waiting && ++asked <= ASK_AT_MOST) return waiting.postMessage({ type: 'SKIP_WAITING' });
    clearInterval(asking);
    asking = undefined;
  }, ASK_AGAIN_MS);
}

export async function startUpdates(): Promise<void> {
  if (!('serviceWorker' in navigator)) return;
  // A version already waiting when the page loads means this load is the reload that takes it up.
  const waitingAtLoad = !!(await navigator.serviceWorker.getRegistration().catch(() => undefined))?.waiting;
  apply = registerSW({
    immediate: true,
    onNeedRefresh() {
      if (waitingAtLoad && !requested) takeUpdate();
      else update.ready = true;
    },
    // The new version took over: reload if this page asked for it; if another tab did, say so and let the user choose.
    onNeedReload() {
      if (requested) location.reload();
      else update.ready = true;
    },
    onRegisteredSW(_url, reg) {
      if (!reg) return;
      registration = reg;
      const check = () => void reg.update().catch(() => undefined);
      setInterval(check, CHECK_EVERY_MS);
      document.addEventListener('visibilitychange', () => document.visibilityState === 'visible' && check());
    },
  });
}
