import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import { BarChart } from './BarChart';

const days = [
  { date: '2026-03-01', n: 0 },
  { date: '2026-03-02', n: 4 },
  { date: '2026-03-03', n: 1 },
];

function chart() {
  return render(
    <>
      <button type="button">before</button>
      <BarChart
        data={days}
        label="Calls per day"
        testId="chart"
        category={(d) => d.date}
        value={(d) => d.n}
        integer
        formatTick={String}
        axisLabel={(d) => d.date.slice(8)}
        axisLabelWidth={18}
        describe={(d) => `${d.date}: ${d.n} calls`}
        rowHeader="Day"
        columns={[{ header: 'Calls', cell: (d) => d.n }]}
      />
      <button type="button">after</button>
    </>,
  );
}

describe('BarChart', () => {
  it('names the chart and gives every figure in a table', () => {
    chart();
    expect(screen.getByRole('group', { name: 'Calls per day' })).toBe(screen.getByTestId('chart'));
    const table = screen.getByRole('table', { name: 'Calls per day' });
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Day', 'Calls']);
    expect(within(table).getByRole('rowheader', { name: '2026-03-02' }).closest('tr')).toHaveTextContent('2026-03-024');
    // A whole-number axis for counts: 4 rounds up to 5, with no 2.5 tick.
    expect(screen.getByTestId('chart').querySelectorAll('line')).toHaveLength(2);
  });

  it('is one tab stop; arrows, Home and End move between the bars and show their figures', async () => {
    const user = userEvent.setup();
    chart();
    const bars = screen.getAllByRole('img');
    expect(bars.map((b) => b.getAttribute('aria-label'))).toEqual(['2026-03-01: 0 calls', '2026-03-02: 4 calls', '2026-03-03: 1 calls']);
    expect(bars.map((b) => b.tabIndex)).toEqual([0, -1, -1]);

    await user.click(screen.getByRole('button', { name: 'before' }));
    await user.tab();
    expect(bars[0]).toHaveFocus();
    expect(screen.getByTestId('chart-tooltip')).toHaveTextContent('2026-03-01: 0 calls');

    await user.keyboard('{ArrowRight}');
    expect(bars[1]).toHaveFocus();
    expect(screen.getByTestId('chart-tooltip')).toHaveTextContent('2026-03-02: 4 calls');
    await user.keyboard('{End}');
    expect(bars[2]).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    expect(bars[2]).toHaveFocus();
    await user.keyboard('{Home}');
    expect(bars[0]).toHaveFocus();
    await user.keyboard('{ArrowRight}');

    // Leaving and coming back lands on the bar last focused.
    await user.tab();
    expect(screen.getByRole('button', { name: 'after' })).toHaveFocus();
    expect(screen.queryByTestId('chart-tooltip')).toBeNull();
    await user.tab({ shift: true });
    expect(bars[1]).toHaveFocus();
  });

  it('shows a bar’s figures while the pointer is on it', async () => {
    const user = userEvent.setup();
    chart();
    const bar = screen.getAllByRole('img')[2]!;
    await user.hover(bar);
    expect(screen.getByTestId('chart-tooltip')).toHaveTextContent('2026-03-03: 1 calls');
    await user.unhover(bar);
    expect(screen.queryByTestId('chart-tooltip')).toBeNull();
  });
});
