import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { Snippet } from './KnowledgeSearch';

describe('Snippet', () => {
  it('marks the found words and renders the document text as text, never as HTML', () => {
    const { container } = render(
      <p>
        <Snippet text={'<img src=x onerror="alert(1)"> We **deliver** on <b>Saturdays</b>'} />
      </p>,
    );
    expect(container.querySelectorAll('mark')).toHaveLength(1);
    expect(container.querySelector('mark')).toHaveTextContent('deliver');
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('b')).toBeNull();
    expect(container).toHaveTextContent('<img src=x onerror="alert(1)"> We deliver on <b>Saturdays</b>');
  });
});
