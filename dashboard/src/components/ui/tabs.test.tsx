import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import { Tabs, TabsContent, TabsList } from './tabs';

describe('Tabs', () => {
  it('switches panels with the keyboard', async () => {
    render(
      <Tabs defaultValue="a">
        <TabsList label="Views" tabs={[{ value: 'a', label: 'First' }, { value: 'b', label: 'Second' }]} />
        <TabsContent value="a">Panel A</TabsContent>
        <TabsContent value="b">Panel B</TabsContent>
      </Tabs>,
    );
    const user = userEvent.setup();
    expect(screen.getByRole('tabpanel')).toHaveTextContent('Panel A');
    await user.click(screen.getByRole('tab', { name: 'First' }));
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Second' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tabpanel')).toHaveTextContent('Panel B');
  });
});
