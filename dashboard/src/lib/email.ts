// The product's e-mail rule (spec section 5): a local part of letters, digits and ._%+-, a
// domain, and a top-level domain of two or more letters, in any case. Every form that takes an
// address checks it with this before asking the server.

export const EMAIL_PATTERN = /^[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,}$/i;

export const EMAIL_HINT = 'Enter an e-mail address like name@example.com.';

export function isEmail(value: string): boolean {
  return EMAIL_PATTERN.test(value.trim());
}

/** The message to show beside an e-mail field, or undefined when the address is fine. */
export function emailError(value: string): string | undefined {
  return isEmail(value) ? undefined : EMAIL_HINT;
}
