// A webhook step's request as its card and its panel read it.
import { count } from '../../../../../lib/plural';
import type { Data, Json } from '../../../graph';

export type Pairs = Record<string, string>;

export function webhookData(data: Data): { params: Pairs; headers: Pairs; body: Record<string, Json> | null } {
  const wd = data['webhookData'];
  const obj = wd && typeof wd === 'object' && !Array.isArray(wd) ? (wd as Record<string, Json>) : {};
  const pairs = (x: Json | undefined): Pairs => (x && typeof x === 'object' && !Array.isArray(x) ? (x as Pairs) : {});
  const body = obj['body'];
  return { params: pairs(obj['params']), headers: pairs(obj['headers']), body: body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, Json>) : null };
}

/** Where a request goes, for the card: the URL's host (the whole URL is in the edit panel). */
export function hostOf(url: string): string {
  try {
    return new URL(url).host || url;
  } catch {
    return url;
  }
}

/** What else the request sends, in words: "2 headers, a JSON body". */
export function requestSummary(data: Data): string {
  const wd = webhookData(data);
  const parts: string[] = [];
  const params = Object.keys(wd.params).length;
  const headers = Object.keys(wd.headers).length;
  if (params) parts.push(count(params, 'query parameter'));
  if (headers) parts.push(count(headers, 'header'));
  if (wd.body && Object.keys(wd.body).length) parts.push('a JSON body');
  return parts.length ? `Sends ${parts.join(', ')}` : 'No parameters, headers or body';
}
