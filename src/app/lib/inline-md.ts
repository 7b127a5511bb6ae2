/**
 * The inline Markdown metric cards are written in (`code`, **strong**, *emphasis*, [links](https://…)), as pieces
 * the page renders as elements — never as HTML, so no text of a card can become markup. Only http(s) links are
 * links; anything else stays text. A small tokenizer rather than a Markdown library: cards use these four
 * forms only, and a library's HTML output would need a sanitizer besides.
 */
export type InlinePiece = { kind: 'text' | 'code' | 'strong' | 'em'; text: string } | { kind: 'link'; text: string; href: string };

const INLINE = /`([^`]+)`|\*\*([^*]+)\*\*|\*([^*\s](?:[^*]*[^*\s])?)\*|\[([^\]]+)\]\((https?:\/\/[^\s)]+)\)/g;

export function inlineMarkdown(s: string): InlinePiece[] {
  const out: InlinePiece[] = [];
  let at = 0;
  for (const m of s.matchAll(INLINE)) {
    if (m.index > at) out.push({ kind: 'text', text: s.slice(at, m.index) });
    if (m[1] !== undefined) out.push({ kind: 'code', text: m[1] });
    else if (m[2] !== undefined) out.push({ kind: 'strong', text: m[2] });
    else if (m[3] !== undefined) out.push({ kind: 'em', text: m[3] });
    else out.push({ kind: 'link', text: m[4]!, href: m[5]! });
    at = m.index + m[0].length;
  }
  if (at < s.length) out.push({ kind: 'text', text: s.slice(at) });
  return out;
}
