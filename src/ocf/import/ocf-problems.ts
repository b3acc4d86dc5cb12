/**
 * A problem that stops an import, or a warning about what it could not keep: the file of the
 * package (its name in the zip; `''` for the zip itself), a JSON pointer into that file (`''` for
 * the whole file) and what is wrong, in words.
 */
export interface OcfProblem {
  file: string;
  path: string;
  reason: string;
}

export type OcfWarning = OcfProblem;

/** Collects problems or warnings, in the order found. */
export class Findings {
  readonly list: OcfProblem[] = [];
  add(file: string, path: string, reason: string): void {
    this.list.push({ file, path, reason });
  }
  get size(): number {
    return this.list.length;
  }
}
