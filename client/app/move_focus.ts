/** How many frames (about 5 s) the focus's loss and its new place are waited for. */
const MAX_FRAMES = 300;

/**
 * Moves the focus on purpose once what has it goes away (a removed cart line's button, a signed-out
 * menu, a form replaced by the page behind it), so it never stays on the page body (WCAG 2.4.3).
 * Called as the change is made: it waits, frame by frame, until the render has taken the focused
 * element away, and does nothing if that never happens (the change failed and the element stayed,
 * or the user moved on to something else that stays).
 *
 * `find` answers the candidates in order of preference, each the element or null while a render
 * has yet to bring it. A missing candidate is waited for (later ones are not tried before it, so a
 * fallback never wins only because the render was late); one that is hidden or refuses the focus
 * gives way to the next. A heading or other element not focusable by itself is made focusable by
 * script only (tabindex -1), never a Tab stop.
 */
export function moveFocusWhenLost(find: () => (HTMLElement | null)[]): void {
  let frames = 0;
  const attempt = () => {
    const active = document.activeElement;
    if (!active || active === document.body) {
      for (const target of find()) {
        if (!target) break;
        if (target.getClientRects().length === 0) continue;
        if (target.tabIndex < 0 && !target.hasAttribute("tabindex")) {
          target.setAttribute("tabindex", "-1");
        }
        target.focus();
        if (document.activeElement === target) return;
      }
    }
    if (frames++ < MAX_FRAMES) requestAnimationFrame(attempt);
  };
  requestAnimationFrame(attempt);
}
