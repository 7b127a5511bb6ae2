/** Saves a Blob as a file the browser downloads; the object URL is revoked once the download has started. */
export function saveBlob(blob: Blob, name: string): void {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = name;
  a.click();
  const url = a.href;
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
