// The password rule the server enforces, checked before asking it.

export const MIN_PASSWORD = 8;

export function passwordError(password: string): string | undefined {
  return password.length < MIN_PASSWORD ? `Use at least ${MIN_PASSWORD} characters.` : undefined;
}

/** The hint under a new-password field: the rule, unless an error already says what to do (one message, not two). */
export function passwordHint(error: string | undefined): string | undefined {
  return error ? undefined : `At least ${MIN_PASSWORD} characters.`;
}
