// Table sorting rules (spec section 5): only the listed columns sort; a click cycles a column
// asc → desc → none; single mode keeps one column, multi mode keeps them in click order.

export type SortDirection = 'asc' | 'desc';

export interface SortRule {
  column: string;
  direction: SortDirection;
}

export type SortMode = 'single' | 'multi';

export function nextSort(rules: readonly SortRule[], column: string, sortable: readonly string[], mode: SortMode): SortRule[] {
  if (!sortable.includes(column)) return [...rules];
  const current = rules.find((r) => r.column === column)?.direction;
  const next: SortDirection | undefined = current === undefined ? 'asc' : current === 'asc' ? 'desc' : undefined;
  if (mode === 'single') {
    return next ? [{ column, direction: next }] : [];
  }
  if (next === undefined) return rules.filter((r) => r.column !== column);
  if (current === undefined) return [...rules, { column, direction: next }];
  return rules.map((r) => (r.column === column ? { column, direction: next } : r));
}

export type SortValue = string | number | boolean | null | undefined;

function compareValues(a: SortValue, b: SortValue): number {
  // Missing values sort last whatever the direction would otherwise say.
  const aMissing = a === null || a === undefined || a === '';
  const bMissing = b === null || b === undefined || b === '';
  if (aMissing || bMissing) return aMissing === bMissing ? 0 : aMissing ? 1 : -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  return String(a).localeCompare(String(b), undefined, { sensitivity: 'base', numeric: true });
}

/** A sorted copy of rows; rules that name a column without an accessor are ignored. */
export function sortRows<T>(rows: readonly T[], rules: readonly SortRule[], accessors: Record<string, (row: T) => SortValue>): T[] {
  const active = rules.filter((r) => accessors[r.column] !== undefined);
  if (active.length === 0) return [...rows];
  return rows
    .map((row, index) => ({ row, index }))
    .sort((x, y) => {
      for (const rule of active) {
        const get = accessors[rule.column]!;
        const a = get(x.row);
        const b = get(y.row);
        const aMissing = a === null || a === undefined || a === '';
        const bMissing = b === null || b === undefined || b === '';
        let result = compareValues(a, b);
        if (!aMissing && !bMissing && rule.direction === 'desc') result = -result;
        if (result !== 0) return result;
      }
      return x.index - y.index;
    })
    .map((entry) => entry.row);
}
