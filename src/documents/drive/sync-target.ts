import { entryNameProblem } from '../data-room/entry-name';

/** Drive ids go into the API's `q` and paths: only the characters Drive's ids are made of. */
export const DRIVE_ID_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;

/** The longest target path stored (the column's length). */
const MAX_PATH_LENGTH = 1024;

/** What a sync configuration's input normalises to, or why it cannot. */
export type Normalised = { value: string } | { problem: string };

/**
 * A data-room folder path: `/`-separated folder names, the outer slashes trimmed (and each name
 * trimmed, as the data room trims names); '' is the top level. Each name follows the data room's
 * rules, so `..`, `.` and an empty segment (`a//b`) are refused: the path can never climb out.
 */
export function normaliseTargetPath(path: string): Normalised {
  const trimmed = path.trim().replace(/^\/+|\/+$/g, '');
  if (trimmed === '') return { value: '' };
  const names = trimmed.split('/').map((name) => name.trim());
  for (const name of names) {
    const problem = entryNameProblem(name);
    if (problem) return { problem: `targetDataRoomPath: a folder name ${problem}` };
  }
  const value = names.join('/');
  if (value.length > MAX_PATH_LENGTH) {
    return { problem: `targetDataRoomPath must be at most ${MAX_PATH_LENGTH} characters` };
  }
  return { value };
}

/**
 * A file-type filter: comma-separated extensions without dots, whatever their case, each one the
 * storage accepts; stored lower-cased, sorted and each once (`pdf,txt`). '' (or only commas and
 * spaces) keeps every accepted type.
 */
export function normaliseFileTypeFilter(filter: string, allowed: readonly string[]): Normalised {
  const extensions = filter
    .split(',')
    .map((e) => e.trim().toLowerCase())
    .filter(Boolean);
  for (const extension of extensions) {
    if (extension.includes('.')) {
      return { problem: `fileTypeFilter: "${extension}" must be an extension without its dot` };
    }
    if (!allowed.includes(extension)) {
      return {
        problem: `fileTypeFilter: .${extension} files are not accepted (${allowed.join(', ')})`,
      };
    }
  }
  return { value: [...new Set(extensions)].sort().join(',') };
}
