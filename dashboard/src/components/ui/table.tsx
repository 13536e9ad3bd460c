import { ArrowDown, ArrowUp, ArrowUpDown, ChevronLeft, ChevronRight } from 'lucide-react';
import { useMemo, useState, type ReactNode } from 'react';

import { cn } from '../../lib/cn';
import { Button } from './button';
import { nextSort, sortRows, type SortMode, type SortRule, type SortValue } from './sorting';

export interface Column<T> {
  key: string;
  header: string;
  cell: (row: T) => ReactNode;
  /** Makes the column sortable by this value. */
  sortValue?: (row: T) => SortValue;
  className?: string;
  /** Hide on narrow screens. */
  hideOnMobile?: boolean;
}

export interface PageInfo {
  page: number;
  totalPages: number;
  totalSize: number;
  start: number;
  end: number;
}

interface DataTableProps<T> {
  caption: string;
  columns: readonly Column<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string;
  sortMode?: SortMode;
  initialSort?: SortRule[];
  /** Server-side paging: the page shown and how to change it. */
  pageInfo?: PageInfo;
  onPageChange?: (page: number) => void;
  /** Client-side paging when there is no pageInfo. */
  pageSize?: number;
}

export function DataTable<T>({ caption, columns, rows, rowKey, sortMode = 'single', initialSort = [], pageInfo, onPageChange, pageSize }: DataTableProps<T>) {
  const [sort, setSort] = useState<SortRule[]>(initialSort);
  const [clientPage, setClientPage] = useState(1);
  const sortable = useMemo(() => columns.filter((c) => c.sortValue).map((c) => c.key), [columns]);
  const accessors = useMemo(() => Object.fromEntries(columns.filter((c) => c.sortValue).map((c) => [c.key, c.sortValue!])), [columns]);
  const sorted = useMemo(() => sortRows(rows, sort, accessors), [rows, sort, accessors]);

  let visible = sorted;
  let info = pageInfo;
  let changePage = onPageChange;
  if (!pageInfo && pageSize) {
    const totalPages = Math.max(1, Math.ceil(sorted.length / pageSize));
    const page = Math.min(clientPage, totalPages);
    visible = sorted.slice((page - 1) * pageSize, page * pageSize);
    info = { page, totalPages, totalSize: sorted.length, start: sorted.length ? (page - 1) * pageSize + 1 : 0, end: (page - 1) * pageSize + visible.length };
    changePage = setClientPage;
  }

  return (
    <div>
      <div className="overflow-x-auto rounded-xl border border-line bg-surface shadow-card">
        <table className="min-w-full divide-y divide-line text-sm">
          <caption className="sr-only">{caption}</caption>
          <thead className="bg-subtle">
            <tr>
              {columns.map((column) => {
                const rule = sort.find((r) => r.column === column.key);
                const position = sortMode === 'multi' && sort.length > 1 && rule ? sort.indexOf(rule) + 1 : undefined;
                return (
                  <th
                    key={column.key}
                    scope="col"
                    aria-sort={rule ? (rule.direction === 'asc' ? 'ascending' : 'descending') : column.sortValue ? 'none' : undefined}
                    className={cn('px-2.5 py-2.5 text-left text-xs font-semibold tracking-wide text-fg-muted uppercase sm:px-4', column.hideOnMobile && 'hidden sm:table-cell', column.className)}
                  >
                    {column.sortValue ? (
                      <button
                        type="button"
                        className="inline-flex items-center gap-1 rounded uppercase hover:text-fg"
                        onClick={() => setSort((rules) => nextSort(rules, column.key, sortable, sortMode))}
                      >
                        {column.header}
                        <span aria-hidden="true" className="text-fg-faint">
                          {rule ? rule.direction === 'asc' ? <ArrowUp className="inline size-3.5" /> : <ArrowDown className="inline size-3.5" /> : <ArrowUpDown className="inline size-3.5" />}
                          {position}
                        </span>
                        <span className="sr-only">{rule ? `, sorted ${rule.direction === 'asc' ? 'ascending' : 'descending'}` : ', not sorted'}</span>
                      </button>
                    ) : (
                      column.header
                    )}
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody className="divide-y divide-line-soft">
            {visible.map((row) => (
              <tr key={rowKey(row)}>
                {columns.map((column) => (
                  <td key={column.key} className={cn('px-2.5 py-3 align-middle text-fg sm:px-4', column.hideOnMobile && 'hidden sm:table-cell', column.className)}>
                    {column.cell(row)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {info && changePage && info.totalPages > 1 && <Pagination info={info} onPageChange={changePage} />}
    </div>
  );
}

export function Pagination({ info, onPageChange }: { info: PageInfo; onPageChange: (page: number) => void }) {
  return (
    <nav aria-label="Pagination" className="mt-3 flex flex-wrap items-center justify-between gap-2 text-sm text-fg-muted">
      <p>
        Showing {info.start} - {info.end} of {info.totalSize}
      </p>
      <div className="flex items-center gap-2">
        <Button variant="secondary" size="sm" disabled={info.page <= 1} onClick={() => onPageChange(info.page - 1)}>
          <ChevronLeft aria-hidden="true" />
          Previous
        </Button>
        <span>
          Page {info.page} - {info.totalPages}
        </span>
        <Button variant="secondary" size="sm" disabled={info.page >= info.totalPages} onClick={() => onPageChange(info.page + 1)}>
          Next
          <ChevronRight aria-hidden="true" />
        </Button>
      </div>
    </nav>
  );
}
