/** Where a command writes its lines: standard output and standard error. */
export interface Output {
  out(line: string): void;
  err(line: string): void;
}
