/**
 * Tables that stack on a narrow window: each row becomes a block of "column: value" lines instead of a strip
 * wider than the screen, so every metric's numbers (and a row's buttons) are in reach without sideways
 * scrolling. Attach to a <table> with a one-row <thead>: each body cell gets its column's header as `data-label`
 * (kept up to date as rows change), and stack.css lays it out below 40rem.
 */
import './stack.css';

function label(table: HTMLTableElement): void {
  const head = table.tHead?.rows[0];
  if (!head) return;
  const names: string[] = [];
  for (const th of head.cells) for (let k = 0; k < th.colSpan; k++) names.push(th.textContent?.trim() ?? '');
  for (const body of table.tBodies) {
    for (const row of body.rows) {
      let col = 0;
      for (const cell of row.cells) {
        // A cell spanning the whole row (a progress or note line) needs no label.
        const name = cell.colSpan > 1 ? '' : (names[col] ?? '');
        if (cell.tagName === 'TD' && cell.getAttribute('data-label') !== name) cell.setAttribute('data-label', name);
        col += cell.colSpan;
      }
    }
  }
}

export function stackOnNarrow(table: HTMLTableElement): () => void {
  table.classList.add('stack');
  label(table);
  const watch = new MutationObserver(() => label(table));
  watch.observe(table, { childList: true, subtree: true, characterData: true });
  return () => watch.disconnect();
}
