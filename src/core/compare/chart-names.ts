/**
 * System names in charts: long names sharing a prefix ("evouna/NQ/fid", "evouna/NQ/gpt4") are drawn without it
 * (the prefix is said once beside the chart), and point labels are placed so that they do not overlap. Pure
 * geometry on estimated text boxes, shared by the app's charts and the HTML report's SVG.
 */

/** The prefix every name shares, cut after its last separator (/ _ - : . or space); '' when the names share none. */
export function sharedPrefix(names: readonly string[]): string {
  if (names.length < 2) return '';
  let p = names[0]!;
  for (const n of names) while (!n.startsWith(p)) p = p.slice(0, -1);
  const cut = Math.max(...['/', '_', '-', ':', '.', ' '].map((c) => p.lastIndexOf(c)));
  p = cut < 0 ? '' : p.slice(0, cut + 1);
  // Never empty a name.
  return names.some((n) => n.length <= p.length) ? '' : p;
}

/** The names as charts draw them: without their shared prefix. */
export function chartNames(names: readonly string[]): { prefix: string; short: string[] } {
  const prefix = sharedPrefix(names);
  return { prefix, short: names.map((n) => n.slice(prefix.length)) };
}

export interface LabelPoint {
  /** The point, in pixels. */
  x: number;
  y: number;
  text: string;
}

export interface PlacedLabel {
  /** Where the text is anchored, in pixels, and how. */
  x: number;
  y: number;
  anchor: 'start' | 'middle' | 'end';
}

interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

const overlaps = (a: Box, b: Box) => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;

/**
 * A place for each point's label: above, below, right or left of it, then further out, the first that overlaps
 * no label already placed and no point, inside the area when it can; `charWidth` and `height` estimate the text
 * (12 px text: about 7 and 14). Deterministic: points are placed in the order given.
 */
export function placeLabels(
  points: readonly LabelPoint[],
  area: { width: number; height: number },
  charWidth = 7,
  height = 14,
  gap = 7,
): PlacedLabel[] {
  const placed: Box[] = points.map((p) => ({ x0: p.x - 4, y0: p.y - 4, x1: p.x + 4, y1: p.y + 4 }));
  const out: PlacedLabel[] = [];
  for (const p of points) {
    const w = p.text.length * charWidth;
    const tries: PlacedLabel[] = [];
    for (let ring = 0; ring < 6; ring++) {
      const d = gap + ring * height;
      tries.push(
        { x: p.x, y: p.y - d, anchor: 'middle' },
        { x: p.x, y: p.y + d + height * 0.7, anchor: 'middle' },
        { x: p.x + d, y: p.y + height * 0.35, anchor: 'start' },
        { x: p.x - d, y: p.y + height * 0.35, anchor: 'end' },
      );
    }
    const boxOf = (t: PlacedLabel): Box => {
      const x0 = t.anchor === 'start' ? t.x : t.anchor === 'end' ? t.x - w : t.x - w / 2;
      return { x0, y0: t.y - height * 0.8, x1: x0 + w, y1: t.y + height * 0.2 };
    };
    const inside = (b: Box) => b.x0 >= 0 && b.x1 <= area.width && b.y0 >= 0 && b.y1 <= area.height;
    const free = (b: Box) => !placed.some((o) => overlaps(o, b));
    const best = tries.find((t) => inside(boxOf(t)) && free(boxOf(t))) ?? tries.find((t) => free(boxOf(t))) ?? tries[0]!;
    placed.push(boxOf(best));
    out.push(best);
  }
  return out;
}

/** The text box of a placed label (estimated as placeLabels estimates it). */
function labelBox(l: PlacedLabel, text: string, charWidth: number, height: number): Box {
  const w = text.length * charWidth;
  const x0 = l.anchor === 'start' ? l.x : l.anchor === 'end' ? l.x - w : l.x - w / 2;
  return { x0, y0: l.y - height * 0.8, x1: x0 + w, y1: l.y + height * 0.2 };
}

/**
 * A line from a point to its label when the label had to move away from it (farther than the first ring), so the
 * reader sees which dot it names: from the dot's edge (radius `r`) to the nearest point of the label's box; null
 * for a label beside its dot.
 */
export function leaderLine(
  p: LabelPoint,
  l: PlacedLabel,
  charWidth = 7,
  height = 14,
  gap = 7,
  r = 5,
): { x1: number; y1: number; x2: number; y2: number } | null {
  const b = labelBox(l, p.text, charWidth, height);
  const x2 = Math.min(Math.max(p.x, b.x0), b.x1);
  const y2 = Math.min(Math.max(p.y, b.y0), b.y1);
  const d = Math.hypot(x2 - p.x, y2 - p.y);
  if (d <= gap + height * 0.5) return null;
  return { x1: p.x + ((x2 - p.x) / d) * r, y1: p.y + ((y2 - p.y) / d) * r, x2, y2 };
}
