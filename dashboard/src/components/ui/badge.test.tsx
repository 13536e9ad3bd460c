import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { StatusBadge, statusBadge } from './badge';

describe('statusBadge', () => {
  it.each([
    ['pending', 'success', 'Pending'],
    ['in-progress', 'success', 'In progress'],
    ['in_progress', 'success', 'In progress'],
    ['done', 'success', 'Completed'],
    ['success', 'success', 'Completed'],
    ['completed', 'success', 'Completed'],
    ['rejected', 'declined', 'Declined'],
    ['declined', 'declined', 'Declined'],
    ['cancelled', 'declined', 'Declined'],
    ['parsing', 'neutral', 'Parsing'],
  ])('%s reads %s / %s', (status, tone, label) => {
    expect(statusBadge(status)).toEqual({ tone, label });
  });

  it('renders the label', () => {
    render(<StatusBadge status="done" />);
    expect(screen.getByText('Completed')).toBeInTheDocument();
  });
});
