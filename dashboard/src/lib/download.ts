/**
 * Hands text the API answered to the browser as a file download. The API wants the session's
 * token, so files are fetched and saved this way rather than linked.
 */
export function saveTextFile(name: string, text: string, type = 'text/csv'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
