// Matching cached queries by the generated operation that made them. A generated key puts the
// path, with its ids filled in, first (`/v1/workflow/csv/${nodeId}`), so "every query of this
// operation, whatever its ids and params" cannot be a plain key prefix. `madeBy` asks the helper
// itself for the path's shape instead of spelling out a URL by hand.

import type { Query } from '@tanstack/react-query';

/** A generated get…QueryKey helper (an array, the path first) or get…Url helper (the path). */
export type KeyHelper = (...args: never[]) => readonly unknown[] | string;

// Stands for a path parameter while the helper builds its path; no real id contains it.
const HOLE = '\u0000';

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The pattern every path the helper can make matches: each path parameter is one segment. */
export function pathPattern(helper: KeyHelper): RegExp {
  const made = (helper as unknown as (...ids: string[]) => readonly unknown[] | string)(HOLE, HOLE, HOLE, HOLE);
  const path = typeof made === 'string' ? made : made[0];
  if (typeof path !== 'string') throw new Error('a key helper must put its path first');
  return new RegExp(`^${path.split(HOLE).map(escape).join('[^/]+')}$`);
}

/** A predicate for invalidateQueries/removeQueries: the queries any of these helpers made. */
export function madeBy(...helpers: KeyHelper[]): (query: Pick<Query, 'queryKey'>) => boolean {
  const patterns = helpers.map(pathPattern);
  return ({ queryKey }) => {
    const path = queryKey[0];
    return typeof path === 'string' && patterns.some((p) => p.test(path));
  };
}
