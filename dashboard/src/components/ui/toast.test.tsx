import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';

import { ApiError } from '../../api/mutator';
import { Toaster } from './toast';
import { toast } from './toast-store';

afterEach(() => act(() => toast.dismiss()));

describe('toast', () => {
  it('uses the default titles', () => {
    render(<Toaster />);
    act(() => toast.success('Saved.'));
    expect(screen.getByText('Success')).toBeInTheDocument();
    act(() => toast.warning('Careful.'));
    expect(screen.getByText('Warning')).toBeInTheDocument();
    act(() => toast.error(new Error('Broken.')));
    expect(screen.getByText('Uh oh! Something went wrong.')).toBeInTheDocument();
  });

  it('shows one toast at a time', () => {
    render(<Toaster />);
    act(() => toast.success('First.'));
    act(() => toast.success('Second.'));
    expect(screen.getAllByTestId('toast')).toHaveLength(1);
    expect(screen.getByText('Second.')).toBeInTheDocument();
    expect(screen.queryByText('First.')).not.toBeInTheDocument();
  });

  it("shows the server's detail in plain words", () => {
    render(<Toaster />);
    act(() => toast.error(new ApiError({ status: 409, code: 'conflict', title: 'Conflict', detail: 'A key with this name already exists.' })));
    expect(screen.getByText('A key with this name already exists.')).toBeInTheDocument();
    expect(screen.queryByText(/409|conflict/)).not.toBeInTheDocument();
  });
});
