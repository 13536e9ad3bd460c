import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, renderHook, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';

import { fakeServer, ok, problem } from '../../test/fakeServer';
import { seedGraph } from './canvas/editor';
import { useSaveQueue } from './canvas/useSaveQueue';
import { PostCallFieldsDialog } from './PostCallFieldsDialog';

describe('the post-call fields editor', { timeout: 30_000 }, () => {
  it('edits, adds and removes fields and saves them as the API takes them', async () => {
    const onSave = vi.fn();
    render(
      <PostCallFieldsDialog
        open
        onOpenChange={() => {}}
        errors={[]}
        onSave={onSave}
        fields={[
          { name: 'email', type: 'email', description: 'Your e-mail?' },
          { name: 'old_field', type: 'text', description: 'Gone soon' },
        ]}
      />,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Post-call fields' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove old_field' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add a field' }));
    const added = within(dialog).getByTestId('post-call-field-1');
    await userEvent.type(within(added).getByLabelText('Name'), 'plan');
    await userEvent.selectOptions(within(added).getByLabelText('Type'), 'choice');
    await userEvent.type(within(added).getByLabelText('Question'), 'Which plan suits you?');
    await userEvent.type(within(added).getByLabelText('Options'), 'Basic, Pro ,');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save fields' }));
    expect(onSave).toHaveBeenCalledWith([
      { name: 'email', type: 'email', description: 'Your e-mail?' },
      { name: 'plan', type: 'choice', description: 'Which plan suits you?', options: ['Basic', 'Pro'] },
    ]);
  });

  it('shows what the server refused beside the field it names', async () => {
    render(
      <PostCallFieldsDialog
        open
        onOpenChange={() => {}}
        onSave={() => {}}
        errors={[{ field: 'postCallFields[1].name', message: 'Another post-call field is named "email".' }]}
        fields={[
          { name: 'email', type: 'email', description: 'Your e-mail?' },
          { name: 'email', type: 'text', description: 'Again' },
        ]}
      />,
    );
    const second = await screen.findByTestId('post-call-field-1');
    expect(within(second).getByLabelText('Name')).toHaveAttribute('aria-invalid', 'true');
    expect(second).toHaveTextContent('Another post-call field is named "email".');
    expect(within(screen.getByTestId('post-call-field-0')).getByLabelText('Name')).not.toHaveAttribute('aria-invalid');
  });

  it('sends the fields with the graph once, on the queue’s version; later saves keep them by leaving them out', async () => {
    let version = 1;
    const calls = fakeServer({
      'POST /v1/workflow/save': ({ body }) => {
        const b = body as { version: number; postCallFields?: unknown[] };
        if (b.postCallFields?.length === 2) return problem(422, 'unprocessable', 'refused', [{ field: 'postCallFields[1].name', message: 'taken' }]);
        version++;
        return ok({ id: 'wf', name: 'W', version, nodes: [], edges: [], readablePromptStatus: 'done' });
      },
    });
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={new QueryClient()}>{children}</QueryClientProvider>;
    const { result } = renderHook(() => useSaveQueue('wf', 1), { wrapper });
    const g = seedGraph('outbound');
    const email = { name: 'email', type: 'email' as const, description: 'Your e-mail?' };
    act(() => result.current.scheduleFields(g, [email]));
    await waitFor(() => expect(result.current.status).toBe('saved'));
    act(() => result.current.schedule(g, { now: true }));
    await waitFor(() => expect(calls.filter((c) => c.path === '/v1/workflow/save')).toHaveLength(2));
    await waitFor(() => expect(result.current.status).toBe('saved'));
    const sent = calls.map((c) => c.body as { version: number; postCallFields?: unknown });
    expect(sent[0]).toMatchObject({ version: 1, postCallFields: [email] });
    expect(sent[1]?.version).toBe(2);
    expect(sent[1]).not.toHaveProperty('postCallFields');
    // A refused set is reported field by field.
    act(() => result.current.scheduleFields(g, [email, email]));
    await waitFor(() => expect(result.current.status).toBe('invalid'));
    expect(result.current.errors).toEqual([{ field: 'postCallFields[1].name', message: 'taken' }]);
  });
});
