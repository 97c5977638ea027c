/**
 * How long a sold-out drop is still shown where its target is sold (a pack's page, an item's card,
 * the configurators' switch cards): three days after its opening. The server leaves it out of the
 * configurators' list after that and the pages stop showing it, by the same number.
 */
export const SOLD_OUT_SHOWN_MS = 3 * 24 * 3_600_000;
