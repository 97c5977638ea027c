/**
 * Geometry checks of a rendered page, as a picky reader sees it: a word of a control, label or
 * status split across two lines ("Ad|d"), a control overflowing its own box or cut off by a box
 * that does not scroll, two controls touching, chart labels cut or reading alike, and a page that
 * scrolls sideways. `layoutFaults` runs inside the page (page.evaluate), so it is one
 * self-contained function with no imports.
 */
import type { Page } from "playwright-core";

/** Widths every page is checked at: a phone, a tablet, a laptop. */
export const LAYOUT_WIDTHS = [390, 768, 1280] as const;

/** How close two controls may come, in CSS pixels, before they read as touching. */
export const MIN_GAP_PX = 2;

/**
 * Every layout fault on the page as a sentence naming the element's text. Runs in the browser.
 * `minGap`: see MIN_GAP_PX.
 */
export function layoutFaults(minGap: number): string[] {
  const faults: string[] = [];
  /** Status words: a badge, a step of the progress, a price. */
  const STATUS = ".step-label, .admin-status, .admin-email-status, .account-order-status, " +
    ".stock-overlay, .badge, .price";
  /** Elements whose words must never be split: controls, labels, tabs and status words. */
  const WHOLE = 'button, [role="tab"], a.button, .link-button, label, legend, summary, ' +
    `thead th, nav a, ${STATUS}`;
  /** What a pointer or the keyboard acts on: these must not touch each other. */
  const CONTROLS = 'button, a[href], input:not([type="hidden"]), select, textarea, [role="tab"]';
  /** An unbroken string this long (an email, an id, a long name) may break anywhere. */
  const LONG_WORD = 16;
  const viewportWidth = document.documentElement.clientWidth;

  const describe = (el: Element) => {
    const field = el as HTMLInputElement;
    const named = el.getAttribute("aria-label") || field.labels?.[0]?.innerText ||
      (el as HTMLElement).innerText || field.placeholder || field.name || "";
    const text = named.replace(/\s+/g, " ").trim().slice(0, 60);
    const tag = el.tagName.toLowerCase() +
      (field.type && el.tagName === "INPUT" ? `[${field.type}]` : "");
    const cls = typeof el.className === "string" && el.className
      ? `.${el.className.trim().split(/\s+/).join(".")}`
      : "";
    return `${tag}${cls} "${text}"`;
  };
  const shownRects = (el: Element) =>
    [...el.getClientRects()].filter((r) => r.width > 1 && r.height > 1);
  const style = (el: Element) => getComputedStyle(el);

  /** The nearest ancestors that clip their content, innermost first, with whether they scroll. */
  const clippers = (el: Element) => {
    const found: { el: Element; scrolls: boolean; axisX: boolean; axisY: boolean }[] = [];
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      const s = style(a);
      const axisX = s.overflowX !== "visible";
      const axisY = s.overflowY !== "visible";
      if (axisX || axisY) {
        const scrolls = /auto|scroll/.test(s.overflowX) || /auto|scroll/.test(s.overflowY);
        found.push({ el: a, scrolls, axisX, axisY });
      }
    }
    return found;
  };
  /**
   * The parts of an element's box a reader sees now: its rects cut to every box that clips or
   * scrolls around it (what a scroll box hides is not seen until scrolled to). Null when none of
   * it shows.
   */
  const visibleBox = (el: Element) => {
    let rects = shownRects(el).map((r) => ({
      left: r.left,
      top: r.top,
      right: r.right,
      bottom: r.bottom,
    }));
    // Inside a closed <details>, display:none or visibility:hidden: not shown.
    if (!el.checkVisibility({ visibilityProperty: true, opacityProperty: true })) return null;
    for (const c of clippers(el)) {
      const box = c.el.getBoundingClientRect();
      rects = rects.map((r) => ({
        left: c.axisX ? Math.max(r.left, box.left) : r.left,
        right: c.axisX ? Math.min(r.right, box.right) : r.right,
        top: c.axisY ? Math.max(r.top, box.top) : r.top,
        bottom: c.axisY ? Math.min(r.bottom, box.bottom) : r.bottom,
      })).filter((r) => r.right - r.left > 1 && r.bottom - r.top > 1);
    }
    rects = rects.filter((r) => r.right > 0 && r.left < viewportWidth + 2000);
    return rects.length > 0 ? rects : null;
  };
  /** The rects of an element's own text (not of a badge positioned out of its flow). */
  const textRects = (el: Element) => {
    const rects: DOMRect[] = [];
    const texts = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    const r = document.createRange();
    for (let t = texts.nextNode(); t; t = texts.nextNode()) {
      let placed = false;
      for (let a = t.parentElement; a && a !== el; a = a.parentElement) {
        if (/absolute|fixed/.test(style(a).position) || a.matches(".visually-hidden")) {
          placed = true;
        }
      }
      if (placed || !(t.textContent ?? "").trim()) continue;
      r.selectNodeContents(t);
      rects.push(...[...r.getClientRects()].filter((q) => q.width > 0 && q.height > 0));
    }
    return rects;
  };

  // (a) A word split across lines: a break that is not at a space or a hyphen.
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  const reported = new Set<Element>();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || parent.closest("script, style, noscript, svg, .visually-hidden")) continue;
    const text = node.textContent ?? "";
    if (!/\S{2}/.test(text)) continue;
    const holder = parent.closest(WHOLE);
    if (reported.has(holder ?? parent)) continue;
    for (const match of text.matchAll(/[^\s\-\u2010-\u2014\u00ad\u200b/]+/g)) {
      const word = match[0];
      if (word.length < 2 || (!holder && word.length >= LONG_WORD)) continue;
      range.setStart(node, match.index!);
      range.setEnd(node, match.index! + word.length);
      const tops = [...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0)
        .map((r) => Math.round(r.top));
      if (tops.length < 2 || Math.max(...tops) - Math.min(...tops) < 3) continue;
      const at = holder ?? parent;
      if (!visibleBox(at)) break;
      faults.push(`word broken mid-letter: "${word}" in ${describe(at)}`);
      reported.add(at);
      break;
    }
  }

  // (b) A control or label whose text runs out of its box, or that is cut off by a box that
  // does not scroll, or by the page's edge; a tab whose label wraps or that its tab bar hides.
  for (const el of document.querySelectorAll(`${CONTROLS}, label, ${STATUS}`)) {
    if (!visibleBox(el)) continue;
    const own = el.getBoundingClientRect();
    const spill = textRects(el).some((r) =>
      r.left < own.left - 1 || r.right > own.right + 1 || r.top < own.top - 1 ||
      r.bottom > own.bottom + 1
    );
    if (spill && style(el).display !== "inline") {
      faults.push(`text overflows its box: ${describe(el)}`);
      continue;
    }
    let cut = false;
    for (const c of clippers(el)) {
      if (c.scrolls && !el.matches('[role="tab"]')) break;
      const box = c.el.getBoundingClientRect();
      if (
        (c.axisX && (own.left < box.left - 1 || own.right > box.right + 1)) ||
        (c.axisY && !c.scrolls && (own.top < box.top - 1 || own.bottom > box.bottom + 1))
      ) {
        cut = true;
        break;
      }
    }
    const inScroller = clippers(el).some((c) => c.scrolls && c.axisX);
    if (!inScroller && (own.right > viewportWidth + 1 || own.left < -1)) cut = true;
    if (cut) faults.push(`cut off: ${describe(el)}`);
    if (el.matches('[role="tab"]')) {
      const lines = new Set(textRects(el).map((r) => Math.round(r.top)));
      if (lines.size > 1) faults.push(`tab label on ${lines.size} lines: ${describe(el)}`);
    }
  }

  // (c) Two visible controls touching or overlapping (one nested in the other is not a touch).
  const controls = [...document.querySelectorAll(CONTROLS)]
    .map((el) => ({ el, rects: visibleBox(el) }))
    .filter((c) => c.rects !== null) as {
      el: Element;
      rects: { left: number; top: number; right: number; bottom: number }[];
    }[];
  for (let i = 0; i < controls.length; i++) {
    for (let j = i + 1; j < controls.length; j++) {
      const a = controls[i];
      const b = controls[j];
      if (a.el.contains(b.el) || b.el.contains(a.el)) continue;
      const touch = a.rects.some((r) =>
        b.rects.some((q) =>
          r.left < q.right + minGap && q.left < r.right + minGap &&
          r.top < q.bottom + minGap && q.top < r.bottom + minGap
        )
      );
      if (touch) faults.push(`controls touch: ${describe(a.el)} and ${describe(b.el)}`);
    }
  }

  // Chart labels: cut at the chart's edge, or two that read alike.
  for (const svg of document.querySelectorAll("svg")) {
    const box = svg.getBoundingClientRect();
    if (box.width < 2) continue;
    const seen = new Map<string, number>();
    for (const t of svg.querySelectorAll("text.recharts-cartesian-axis-tick-value")) {
      const label = (t.textContent ?? "").trim();
      if (!label) continue;
      seen.set(label, (seen.get(label) ?? 0) + 1);
      const r = t.getBoundingClientRect();
      if (r.left < box.left - 1 || r.right > box.right + 1) {
        faults.push(`chart label cut: "${label}"`);
      }
    }
    for (const [label, n] of seen) {
      if (n > 1) faults.push(`chart labels read alike: ${n} × "${label}"`);
    }
  }

  // (d) The shop's own placements. The notice sits in a landmark, so no part of the page is
  // outside one; nothing floats far from what it belongs to; cards in a row keep their prices
  // and buttons in line.
  const banner = document.querySelector(".banner");
  const LANDMARKS = "header, nav, main, footer, aside, section[aria-label], " +
    "section[aria-labelledby], [role=region], [role=banner], [role=complementary], " +
    "[role=contentinfo], [role=navigation], [role=main]";
  if (banner && !banner.closest("#main .admin-notice-preview") && !banner.closest(LANDMARKS)) {
    faults.push(`the notice is outside every landmark: ${describe(banner)}`);
  }
  const gapBetween = (upper: Element | null, lower: Element | null, most: number, what: string) => {
    if (!upper || !lower || !visibleBox(upper) || !visibleBox(lower)) return;
    const gap = lower.getBoundingClientRect().top - upper.getBoundingClientRect().bottom;
    if (gap > most) faults.push(`${Math.round(gap)} px of empty band ${what}`);
  };
  const continueShopping = [...document.querySelectorAll("main a.button")]
    .find((a) => a.textContent === "Continue Shopping") ?? null;
  gapBetween(
    document.querySelector(".empty-cart"),
    continueShopping,
    48,
    'between the empty cart\'s message and "Continue Shopping"',
  );
  gapBetween(
    document.querySelector(".picker-toolbar"),
    document.querySelector(".switch-grid"),
    32,
    "between the search row and the switch grid",
  );
  const rows = new Map<number, Element[]>();
  for (const card of document.querySelectorAll(".product-card")) {
    if (!visibleBox(card)) continue;
    const top = Math.round(card.getBoundingClientRect().top);
    rows.set(top, [...(rows.get(top) ?? []), card]);
  }
  for (const cards of rows.values()) {
    for (const part of [".price", ".add-to-cart"]) {
      const tops = cards.map((c) => c.querySelector(part)?.getBoundingClientRect().top)
        .filter((t): t is number => t !== undefined);
      if (tops.length > 1 && Math.max(...tops) - Math.min(...tops) > 1) {
        const names = cards.map((c) => c.querySelector("h3")?.textContent).join(", ");
        faults.push(`${part} out of line across a row of cards: ${names}`);
      }
    }
  }

  if (document.documentElement.scrollWidth > viewportWidth + 1) {
    // Name what sticks out: the innermost elements past the right edge, not inside a scroll box.
    const past = (el: Element) => el.getBoundingClientRect().right > viewportWidth + 1;
    const out = [...document.body.querySelectorAll("*")].filter((el) =>
      past(el) &&
      // Inside a box that scrolls or clips within the page, it is not what widens it.
      !clippers(el).some((c) => c.axisX && (c.scrolls || !past(c.el))) &&
      ![...el.children].some((c) => c.getBoundingClientRect().right > viewportWidth + 1)
    );
    // Or text running out of a box that stays inside the page.
    const spilling = [...document.body.querySelectorAll("*")].filter((el) =>
      !past(el) && !clippers(el).some((c) => c.axisX) &&
      textRects(el).some((r) => r.right > viewportWidth + 1)
    ).filter((el, _, all) => !all.some((o) => o !== el && el.contains(o)));
    // Or else the innermost box whose content (a pseudo-element's too) reaches past the edge.
    const reaching = [...document.body.querySelectorAll("*")].filter((el) =>
      el.getBoundingClientRect().left + el.scrollWidth > viewportWidth + 1 &&
      !clippers(el).some((c) => c.axisX)
    ).filter((el, _, all) => !all.some((o) => o !== el && el.contains(o)));
    const named = out.length ? out : spilling.length ? spilling : reaching;
    faults.push(
      `the page scrolls sideways (${document.documentElement.scrollWidth} px wide): ` +
        named.slice(0, 3).map(describe).join(", "),
    );
  }
  return faults;
}

/**
 * Every fault of the page now open at each of LAYOUT_WIDTHS, each prefixed with where it was found
 * ("/admin (Emails) at 390 px: ..."). The page is resized in place, so one load serves all three
 * widths. Open it at the first width (a phone), so what a page lays out once at load is laid out
 * for a phone. Measured in the light theme only: the dark theme's CSS sets colours and nothing else
 * (tests/unit/theme_css_test.ts holds it to that), so its geometry is the light theme's.
 */
export async function faultsAtEveryWidth(page: Page, where: string): Promise<string[]> {
  const found: string[] = [];
  const original = await page.evaluate(() => document.documentElement.dataset.theme ?? "light");
  for (const width of LAYOUT_WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    const faults = await page.evaluate(async (gap) => {
      document.documentElement.dataset.theme = "light";
      // What content-visibility skips off screen is laid out as it will be once scrolled to
      // (only `auto`: a closed <details> hides its content on purpose).
      const skipping = [...document.querySelectorAll<HTMLElement>("body *")]
        .filter((el) => getComputedStyle(el).contentVisibility === "auto");
      for (const el of skipping) el.style.contentVisibility = "visible";
      try {
        // From the top, where the sticky header covers nothing; again if something (a focus
        // moved into view) scrolled the page meanwhile. Two frames each: the resize and the
        // theme are laid out before anything is measured.
        for (let tries = 0; tries < 5 && (tries === 0 || scrollY !== 0); tries++) {
          scrollTo({ top: 0, left: 0, behavior: "instant" });
          await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        }
        return (globalThis as unknown as { layoutFaults: (g: number) => string[] })
          .layoutFaults(gap);
      } finally {
        for (const el of skipping) el.style.contentVisibility = "";
      }
    }, MIN_GAP_PX);
    for (const fault of faults) found.push(`${where} at ${width} px: ${fault}`);
  }
  await page.evaluate((t) => document.documentElement.dataset.theme = t, original);
  return found;
}

/**
 * Installs layoutFaults in every document the page opens, as window.layoutFaults, and turns
 * motion off.
 */
export async function installLayoutFaults(page: Page): Promise<void> {
  // No transitions: what is measured is where things end up, not where they pass.
  await page.emulateMedia({ reducedMotion: "reduce" });
  await page.addInitScript(`globalThis.layoutFaults = ${layoutFaults.toString()};`);
}
