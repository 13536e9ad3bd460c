import { describe, expect, it } from 'vitest';

import { addFaqLocation, knowledgeState, listLocation, withKnowledgeBase } from './params';

describe('knowledge-base URL state', () => {
  it('reads the selected knowledge base and the FAQ being edited', () => {
    expect(knowledgeState(new URLSearchParams('teamId=t1'))).toEqual({ knowledgeBaseId: null, faqId: null });
    expect(knowledgeState(new URLSearchParams('knowledgeBaseId=kb1&faq-id=f1'))).toEqual({ knowledgeBaseId: 'kb1', faqId: 'f1' });
    expect(knowledgeState(new URLSearchParams('knowledgeBaseId=&faq-id='))).toEqual({ knowledgeBaseId: null, faqId: null });
  });

  it('selecting another knowledge base starts its files at page 1 and keeps the rest', () => {
    const params = new URLSearchParams('teamId=t1&knowledgeBasePage=2&knowledgeBaseId=kb1&knowledgeBaseFilesPage=3');
    expect(withKnowledgeBase(params, 'kb2').toString()).toBe('teamId=t1&knowledgeBasePage=2&knowledgeBaseId=kb2');
    expect(withKnowledgeBase(params, 'kb1').get('knowledgeBaseFilesPage')).toBe('3');
    expect(withKnowledgeBase(params, null).toString()).toBe('teamId=t1&knowledgeBasePage=2');
  });

  it('opens the add-faq route beside the page, with faq-id only when editing', () => {
    const params = new URLSearchParams('teamId=t1&knowledgeBaseId=kb1');
    expect(addFaqLocation('/dashboard/knowledge-base', params)).toBe('/dashboard/knowledge-base/add-faq?teamId=t1&knowledgeBaseId=kb1');
    expect(addFaqLocation('/dashboard/campaigns/c1/knowledge-base', params, 'f1')).toBe('/dashboard/campaigns/c1/knowledge-base/add-faq?teamId=t1&knowledgeBaseId=kb1&faq-id=f1');
    expect(listLocation('/dashboard/knowledge-base', new URLSearchParams('knowledgeBaseId=kb1&faq-id=f1'))).toBe('/dashboard/knowledge-base?knowledgeBaseId=kb1');
    expect(listLocation('/dashboard/knowledge-base', new URLSearchParams())).toBe('/dashboard/knowledge-base');
  });
});
