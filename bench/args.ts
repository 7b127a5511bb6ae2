/**
 * The bench scripts' command line, one reader for all: `--name value` options and `--name` switches. A number that
 * does not read as one stops the script with the option's name, rather than timing NaN rows.
 */

/** The value after `--name`, or `dflt` when the option is absent. */
export function argText(name: string, dflt: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1]! : dflt;
}

/** The number after `--name`, or `dflt` when the option is absent. */
export function argNumber(name: string, dflt: number): number {
  const text = argText(name, '');
  if (text === '') return dflt;
  const n = Number(text);
  if (!Number.isFinite(n)) throw new Error(`--${name} expects a number, got "${text}"`);
  return n;
}

/** Whether the switch `--name` is given. */
export const argFlag = (name: string): boolean => process.argv.includes(`--${name}`);

/** The comma-separated list after `--name`, each item parsed, or `dflt` when the option is absent. */
export function argList<T>(name: string, dflt: T[], parse: (s: string) => T): T[] {
  const text = argText(name, '');
  return text === '' ? dflt : text.split(',').map(parse);
}
