import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import { ConfirmDialog } from './confirm-dialog';
import { DataTable, type Column } from './table';

type Row = { id: string; name: string; city: string };
const rows: Row[] = Array.from({ length: 12 }, (_, i) => ({ id: String(i), name: `Name ${String(12 - i).padStart(2, '0')}`, city: i % 2 ? 'Oslo' : 'Lima' }));
const columns: Column<Row>[] = [
  { key: 'name', header: 'Name', cell: (r) => r.name, sortValue: (r) => r.name },
  { key: 'city', header: 'City', cell: (r) => r.city },
];

function firstCell() {
  return within(screen.getAllByRole('row')[1]!).getAllByRole('cell')[0]!.textContent;
}

describe('DataTable', () => {
  it('sorts listed columns asc, desc, none, and leaves the others plain', async () => {
    render(<DataTable caption="People" columns={columns} rows={rows} rowKey={(r) => r.id} pageSize={10} />);
    const user = userEvent.setup();
    expect(firstCell()).toBe('Name 12');
    const header = screen.getByRole('columnheader', { name: /Name/ });
    await user.click(within(header).getByRole('button'));
    expect(header).toHaveAttribute('aria-sort', 'ascending');
    expect(firstCell()).toBe('Name 01');
    await user.click(within(header).getByRole('button'));
    expect(header).toHaveAttribute('aria-sort', 'descending');
    expect(firstCell()).toBe('Name 12');
    await user.click(within(header).getByRole('button'));
    expect(header).toHaveAttribute('aria-sort', 'none');
    expect(within(screen.getByRole('columnheader', { name: 'City' })).queryByRole('button')).toBeNull();
  });

  it('pages by ten', async () => {
    render(<DataTable caption="People" columns={columns} rows={rows} rowKey={(r) => r.id} pageSize={10} />);
    expect(screen.getAllByRole('row')).toHaveLength(11);
    expect(screen.getByText('Showing 1 - 10 of 12')).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getAllByRole('row')).toHaveLength(3);
    expect(screen.getByText('Page 2 - 2')).toBeInTheDocument();
  });
});

describe('ConfirmDialog', () => {
  it('waits for the typed confirmation', async () => {
    let confirmed = false;
    render(<ConfirmDialog open onOpenChange={() => {}} title="Delete Acme?" description="Gone for good." confirmLabel="Delete team" typeToConfirm="Acme" onConfirm={() => (confirmed = true)} />);
    const user = userEvent.setup();
    const button = screen.getByRole('button', { name: 'Delete team' });
    expect(button).toBeDisabled();
    await user.type(screen.getByLabelText(/Type Acme to confirm/), 'Acme');
    expect(button).toBeEnabled();
    await user.click(button);
    expect(confirmed).toBe(true);
  });
});
