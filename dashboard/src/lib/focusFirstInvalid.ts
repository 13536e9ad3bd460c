/**
 * After a form refuses to submit, moves focus to its first field marked invalid, so keyboard and
 * screen-reader users land on the message. Runs once React has rendered the errors.
 */
export function focusFirstInvalid(form: HTMLFormElement | null): void {
  setTimeout(() => {
    form?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, 0);
}
