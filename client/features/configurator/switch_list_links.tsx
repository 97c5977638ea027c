import type { MouseEvent } from "react";

/** Focuses an element (scrolled into view) in place of following a link's fragment. */
function focusOn(event: MouseEvent<HTMLAnchorElement>, target: HTMLElement | null | undefined) {
  if (!target) return;
  event.preventDefault();
  target.scrollIntoView({ block: "center" });
  target.focus({ preventScroll: true });
}

/** The id of the links after the switch list, where skipping it lands. */
const AFTER_ID = "after-switch-list";

/**
 * Before the switch list: a keyboard user need not Tab through every card (there are dozens) to
 * reach what follows it. Shown when focused, like the page's "Skip to content".
 */
export function SkipSwitchList() {
  return (
    <a
      href={`#${AFTER_ID}`}
      className="skip-inline"
      onClick={(e) => focusOn(e, document.getElementById(AFTER_ID)?.querySelector("a"))}
    >
      Skip the switch list
    </a>
  );
}

/**
 * After the switch list: back to the tester's options (size, keycaps) or straight to Add to
 * Cart, in one key press rather than a Shift+Tab for every card.
 */
export function BackFromSwitchList({ summaryId }: { summaryId: string }) {
  return (
    <p id={AFTER_ID} className="switch-list-back">
      <a
        href={`#${summaryId}`}
        className="skip-inline"
        onClick={(e) =>
          focusOn(
            e,
            document.querySelector<HTMLElement>(
              ".configurator-aside :is(input:checked, input:not([type=radio]), select, button, a[href])",
            ),
          )}
      >
        Back to the options
      </a>
      <a
        href={`#${summaryId}`}
        className="skip-inline"
        onClick={(e) =>
          focusOn(
            e,
            document.getElementById(summaryId)?.querySelector<HTMLElement>(".configurator-add"),
          )}
      >
        Back to Add to Cart
      </a>
    </p>
  );
}
