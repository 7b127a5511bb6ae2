/** What the CLI says on stderr: one `verity: …` line, the input's text made visible, mapping notes in CLI words. */
import type { MappingNote } from '../core/io/fields.ts';
import { escapeControls } from '../core/text/visible.ts';

export { escapeControls };

/** One "verity: …" line on stderr. */
export const say = (msg: string): void => void process.stderr.write(`verity: ${escapeControls(msg)}\n`);

/** A mapping note worded for a CLI user. */
export function cliNote(n: MappingNote): string {
  if (n.code === 'gold-separator')
    return n.applied
      ? `${n.message} (--gold-sep none reads each cell as one gold answer)`
      : `${n.message}: use --gold-sep '${n.separator}' to score each item as a gold answer`;
  if (n.code === 'layout') return `${n.message} (--map field=COLUMN reads it otherwise)`;
  return n.message;
}
