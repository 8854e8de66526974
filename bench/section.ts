// What every bench section returns, printed as a table by run.ts and kept in its JSON.

/** One measured line: a name and any numbers (or short texts) worth printing. */
export interface Row {
  name?: string;
  [metric: string]: string | number | undefined;
}

/** What a bench module returns: a titled list of rows, optional notes and raw detail for the JSON. */
export interface Section {
  name: string;
  rows: Row[];
  notes?: string[];
  detail?: unknown;
}
