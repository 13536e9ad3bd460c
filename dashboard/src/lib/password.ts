// The password rule the server enforces, checked before asking it.

export const MIN_PASSWORD = 8;

export function passwordError(password: string): string | undefined {
  return password.length < MIN_PASSWORD ? `Use at least ${MIN_PASSWORD} characters.` : undefined;
}
