/** "1 system", "5 systems": a count and its noun, in the CLI's and the reports' sentences. */
export function count(n: number, noun: string, plural = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : plural}`;
}
