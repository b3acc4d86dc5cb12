import { QueryFlag } from '../../common';

export class OcfImportQuery {
  /** Check the package and say what it would import, changing nothing (200 instead of 201). */
  @QueryFlag()
  dryRun?: boolean;
}
