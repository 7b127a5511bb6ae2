/**
 * Text from the data made safe to show in a line — on a terminal or in a note on the page: C0/C1 control characters
 * (escape sequences could recolour, retitle or clear a terminal), line breaks and bidirectional overrides (which
 * would reverse the rest of a note) are written as \x.. / \u.... escapes.
 */
export function escapeControls(s: string): string {
  return s.replace(/[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, (c) => {
    const n = c.charCodeAt(0);
    return n < 0x100 ? `\\x${n.toString(16).padStart(2, '0')}` : `\\u${n.toString(16).padStart(4, '0')}`;
  });
}
