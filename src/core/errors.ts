/** The text of anything thrown: an Error's message, else the value as a string. The one copy of this helper. */
export const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));
