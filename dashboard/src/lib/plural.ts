/**
 * A number with its noun, singular for exactly one: count(1, 'call') is "1 call", count(3, 'call')
 * "3 calls", count(2, 'entry', 'entries') "2 entries". The one way the dashboard writes a count; never
 * "call(s)".
 */
export function count(n: number, one: string, many: string = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}
