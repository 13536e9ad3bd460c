// A small E.164 check for the editor. The server checks numbers with libphonenumber and is
// authoritative; this catches what the editor can catch without shipping that library: the
// shape, and for the countries Betty sells numbers in (US, CA, GB) and a few common others the
// length of the national number (and the North American area and exchange codes).

/** National significant number lengths by calling code. */
const NSN_LENGTHS: Record<string, number[]> = {
  '1': [10],
  '44': [10],
  '33': [9],
  '49': [6, 7, 8, 9, 10, 11, 12, 13],
  '34': [9],
  '39': [6, 7, 8, 9, 10, 11],
  '31': [9],
  '61': [9],
  '91': [10],
  '353': [7, 8, 9],
  '52': [10],
  '55': [10, 11],
};

/** The calling code a number starts with (from the table above), or undefined. */
export function callingCode(e164: string): string | undefined {
  const digits = e164.replace(/^\+/, '');
  for (const len of [3, 2, 1]) {
    const cc = digits.slice(0, len);
    if (NSN_LENGTHS[cc]) return cc;
  }
  return undefined;
}

export function validE164(s: string): boolean {
  if (!/^\+[1-9]\d{6,14}$/.test(s)) return false;
  const cc = callingCode(s);
  if (!cc) return true;
  const nsn = s.slice(1 + cc.length);
  if (!NSN_LENGTHS[cc]!.includes(nsn.length)) return false;
  if (cc === '1') return /^[2-9]\d{2}[2-9]\d{6}$/.test(nsn);
  if (cc === '44') return /^[1-37-9]/.test(nsn);
  return true;
}

const REGION_BY_CODE: Record<string, string> = {
  '1': 'US',
  '44': 'GB',
  '33': 'FR',
  '49': 'DE',
  '34': 'ES',
  '39': 'IT',
  '31': 'NL',
  '61': 'AU',
  '91': 'IN',
  '353': 'IE',
  '52': 'MX',
  '55': 'BR',
};

/** Canadian area codes (the rest of +1 is shown as US). */
const CA_AREA = new Set(
  '204 226 236 249 250 263 289 306 343 354 365 367 368 382 403 416 418 428 431 437 438 450 468 474 506 514 519 548 579 581 584 587 600 604 613 639 647 672 683 705 709 742 753 778 780 782 807 819 825 867 873 879 902 905'.split(
    ' ',
  ),
);

/** The two-letter region of a number, when the table knows it. */
export function regionOf(e164: string): string | undefined {
  const cc = callingCode(e164);
  if (!cc) return undefined;
  if (cc === '1' && CA_AREA.has(e164.slice(2, 5))) return 'CA';
  return REGION_BY_CODE[cc];
}
