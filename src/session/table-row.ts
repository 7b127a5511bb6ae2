/** The page's view of one row (api.ts and review-api.ts both name it). */

/** One table row: what the table shows, without explanations and details (those come with detail()). */
export interface TableRow {
  index: number;
  row: number;
  id: string;
  question: string;
  golds: string[];
  candidate: string;
  label: boolean | string | null;
  metrics: Record<string, { score: number | null; decision: boolean | null; class?: string; set?: string }>;
  /** The row's system, when the run has several. */
  system?: string;
}
