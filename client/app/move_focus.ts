/** How many frames (about 5 s) a target that a render is still to bring is waited for. */
const MAX_FRAMES = 300;

/**
 * Moves the focus on purpose when what has it is going away (a removed cart line's button, a
 * signed-out menu, a form replaced by the page behind it), so it never falls to the page body
 * (WCAG 2.4.3).
 *
 * `find` answers the candidates in order of preference, each the element or null while a render
 * has yet to bring it. They are tried now and then on each frame: a missing candidate is waited
 * for (later ones are not tried before it, so a fallback never wins only because the render was
 * late), one that is hidden or refuses the focus gives way to the next. A heading or other element
 * not focusable by itself is made focusable by script only (tabindex -1), never a Tab stop.
 * Nothing moves once the user has put the focus somewhere else that is still on the page.
 */
export function moveFocus(from: Element | null, find: () => (HTMLElement | null)[]): void {
  let frames = 0;
  const attempt = () => {
    const active = document.activeElement;
    const lost = !active || active === document.body || active === from || !active.isConnected;
    if (!lost) return;
    for (const target of find()) {
      if (!target) break;
      if (target.getClientRects().length === 0) continue;
      if (target.tabIndex < 0 && !target.hasAttribute("tabindex")) {
        target.setAttribute("tabindex", "-1");
      }
      target.focus();
      if (document.activeElement === target) return;
    }
    if (frames++ < MAX_FRAMES) requestAnimationFrame(attempt);
  };
  attempt();
}
