/** Sends the browser to a provider's authorisation page (its own module so tests can stand in for it). */
export function leaveFor(url: string) {
  window.location.assign(url);
}
