// Small pieces every inspector page shares: which `<details class="section">` are open, kept across
// re-renders of the same editor (the host replaces the whole page; VS Code keeps the page's state),
// the status line and the buttons.

export function keepSectionsOpen(state: { getState<S extends object>(): Partial<S>; setState(s: object): void }): void {
  const saved = state.getState<Record<string, boolean>>();
  document.querySelectorAll<HTMLDetailsElement>('details.section').forEach((d) => {
    const id = d.getAttribute('data-testid');
    if (!id) return;
    if (typeof saved[id] === 'boolean') d.open = saved[id];
    d.addEventListener('toggle', () => state.setState({ ...state.getState<Record<string, boolean>>(), [id]: d.open }));
  });
}

/** The status line: the host's StatusMessage text, as text. */
export function showStatus(text: string): void {
  const status = document.getElementById('status');
  if (status) status.textContent = text;
}

/** A button by id posts a message when clicked (when the page has it). */
export function onClick(id: string, act: () => void): void {
  document.getElementById(id)?.addEventListener('click', act);
}
