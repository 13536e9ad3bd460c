import { describe, expect, it } from 'vitest';

import { EMAIL_HINT, emailError, isEmail } from './email';

describe('the e-mail rule', () => {
  it.each(['olivia@example.com', 'O.Live+tag@Mail.Example.CO', 'a_b%c-d@x.io', '  spaced@example.com  '])('accepts %s', (address) => {
    expect(isEmail(address)).toBe(true);
    expect(emailError(address)).toBeUndefined();
  });

  it.each(['', 'olivia', 'olivia@example', 'olivia@example.c', 'oli via@example.com', 'olivia@exa_mple.com', 'olivia@example.c0m', 'ölivia@example.com'])('refuses %j', (address) => {
    expect(isEmail(address)).toBe(false);
    expect(emailError(address)).toBe(EMAIL_HINT);
  });
});
