/**
 * A link to one line of a long page (a glossary term) can be followed before the content above that line has
 * arrived: the Learn page scores its demo set and mounts a chart per metric after it opens, and that pushed the
 * line thousands of pixels below the viewport it had been scrolled into. This scrolls `target` to the middle of
 * the viewport, and again each time `content` (what holds it) changes size, until the reader scrolls, clicks or
 * types: from then on the page is theirs.
 */
export function keepInView(target: Element, content: Element): () => void {
  // A ResizeObserver calls back once when it starts observing, after layout: that call is the first scroll.
  const watch = new ResizeObserver(() => target.scrollIntoView({ block: 'center' }));
  const reader = ['wheel', 'touchstart', 'pointerdown', 'keydown'] as const;
  const stop = () => {
    watch.disconnect();
    for (const type of reader) removeEventListener(type, stop, true);
  };
  for (const type of reader) addEventListener(type, stop, { capture: true, passive: true });
  watch.observe(content);
  return stop;
}
