// An agent's FAQ is a map of question to answer. A question key may begin with a bracketed
// number ("[2] Do you deliver?") that sets its place in the list; numbered keys come first by
// that number, then the others alphabetically, and the prefix is never shown. The editor saves
// the list it shows by numbering every question in order.

import type { AgentFaq } from '../../api/gen/model';

export interface FaqEntry {
  question: string;
  answer: string;
}

const ORDER_PREFIX = /^\s*\[(\d+)\]\s*/;

/** A stored key's order number (null when it has none) and the question without its prefix. */
export function parseFaqKey(key: string): { order: number | null; question: string } {
  const match = ORDER_PREFIX.exec(key);
  if (!match) return { order: null, question: key.trim() };
  return { order: Number(match[1]), question: key.slice(match[0].length).trim() };
}

/** The FAQ as the list to show: numbered questions by number, then the rest alphabetically. */
export function orderedFaq(faq: AgentFaq): FaqEntry[] {
  return Object.entries(faq)
    .map(([key, answer]) => ({ ...parseFaqKey(key), answer }))
    .sort((a, b) => {
      if (a.order !== null && b.order !== null) return a.order - b.order || a.question.localeCompare(b.question);
      if (a.order !== null) return -1;
      if (b.order !== null) return 1;
      return a.question.localeCompare(b.question);
    })
    .map(({ question, answer }) => ({ question, answer }));
}

/** The FAQ to save for the list as shown: "[1] …", "[2] …" in order; blank rows are left out. */
export function faqFromEntries(entries: readonly FaqEntry[]): AgentFaq {
  const faq: AgentFaq = {};
  entries
    .map((e) => ({ question: e.question.trim(), answer: e.answer.trim() }))
    .filter((e) => e.question !== '' || e.answer !== '')
    .forEach((e, index) => {
      faq[`[${index + 1}] ${e.question}`] = e.answer;
    });
  return faq;
}

/** What is wrong with a row, by index: a question without an answer or the other way round, or a question asked twice. */
export function faqErrors(entries: readonly FaqEntry[]): Map<number, string> {
  const errors = new Map<number, string>();
  const seen = new Map<string, number>();
  entries.forEach((entry, index) => {
    const question = entry.question.trim();
    const answer = entry.answer.trim();
    if (question === '' && answer === '') return;
    if (question === '') errors.set(index, 'Write the question this answers.');
    else if (answer === '') errors.set(index, 'Write the answer the agent gives.');
    else if (seen.has(question.toLowerCase())) errors.set(index, `This question is already number ${seen.get(question.toLowerCase())! + 1}.`);
    if (question !== '' && !seen.has(question.toLowerCase())) seen.set(question.toLowerCase(), index);
  });
  return errors;
}

/** The list with the row at `from` moved to `to` (both kept in range). */
export function moveEntry<T>(entries: readonly T[], from: number, to: number): T[] {
  const next = [...entries];
  if (from < 0 || from >= next.length) return next;
  const target = Math.max(0, Math.min(next.length - 1, to));
  const [item] = next.splice(from, 1);
  next.splice(target, 0, item!);
  return next;
}
