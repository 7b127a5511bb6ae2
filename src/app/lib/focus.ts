/**
 * A button that disables itself while its work runs (Score's "Score N rows") loses the focus to <body>, and so
 * does a Cancel button that disappears when the work ends. This attachment takes the focus back when the button
 * is enabled again, if the focus was on it when it was disabled and nothing else has taken it since.
 */
export function refocusWhenEnabled(button: HTMLButtonElement): () => void {
  let had = false;
  const lost = () => document.activeElement === null || document.activeElement === document.body;
  const watch = new MutationObserver(() => {
    if (button.disabled) had ||= document.activeElement === button || lost();
    else if (had) {
      had = false;
      if (lost()) button.focus();
    }
  });
  watch.observe(button, { attributes: true, attributeFilter: ['disabled'] });
  return () => watch.disconnect();
}
