import { describe, expect, it } from 'vitest';

import { nextSort, sortRows } from './sorting';

const sortable = ['name', 'age'];

describe('nextSort', () => {
  it('cycles a column asc, desc, none', () => {
    const one = nextSort([], 'name', sortable, 'single');
    expect(one).toEqual([{ column: 'name', direction: 'asc' }]);
    const two = nextSort(one, 'name', sortable, 'single');
    expect(two).toEqual([{ column: 'name', direction: 'desc' }]);
    expect(nextSort(two, 'name', sortable, 'single')).toEqual([]);
  });

  it('ignores columns that are not listed as sortable', () => {
    const rules = [{ column: 'name', direction: 'asc' as const }];
    expect(nextSort(rules, 'email', sortable, 'multi')).toEqual(rules);
  });

  it('keeps one column in single mode', () => {
    const rules = nextSort([{ column: 'name', direction: 'asc' }], 'age', sortable, 'single');
    expect(rules).toEqual([{ column: 'age', direction: 'asc' }]);
  });

  it('keeps several columns in click order in multi mode', () => {
    let rules = nextSort([], 'name', sortable, 'multi');
    rules = nextSort(rules, 'age', sortable, 'multi');
    expect(rules).toEqual([
      { column: 'name', direction: 'asc' },
      { column: 'age', direction: 'asc' },
    ]);
    rules = nextSort(rules, 'name', sortable, 'multi');
    expect(rules[0]).toEqual({ column: 'name', direction: 'desc' });
    rules = nextSort(rules, 'name', sortable, 'multi');
    expect(rules).toEqual([{ column: 'age', direction: 'asc' }]);
  });
});

describe('sortRows', () => {
  const rows = [
    { name: 'bob', age: 30 },
    { name: 'Alice', age: 30 },
    { name: 'carol', age: 25 },
    { name: '', age: 40 },
  ];
  const accessors = { name: (r: (typeof rows)[number]) => r.name, age: (r: (typeof rows)[number]) => r.age };

  it('sorts case-insensitively, missing values last in both directions', () => {
    expect(sortRows(rows, [{ column: 'name', direction: 'asc' }], accessors).map((r) => r.name)).toEqual(['Alice', 'bob', 'carol', '']);
    expect(sortRows(rows, [{ column: 'name', direction: 'desc' }], accessors).map((r) => r.name)).toEqual(['carol', 'bob', 'Alice', '']);
  });

  it('breaks ties with the next rule, then keeps the original order', () => {
    const sorted = sortRows(
      rows,
      [
        { column: 'age', direction: 'desc' },
        { column: 'name', direction: 'asc' },
      ],
      accessors,
    );
    expect(sorted.map((r) => r.name)).toEqual(['', 'Alice', 'bob', 'carol']);
  });

  it('leaves rows alone with no rules', () => {
    expect(sortRows(rows, [], accessors)).toEqual(rows);
  });
});
