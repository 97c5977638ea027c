import { type CSSProperties, useEffect, useRef, useState } from "react";
import { Link } from "react-router-dom";
import { STARTING_PRICE_TEXT, SWITCH_COUNT_TEXT, TIMINGS } from "../../../shared/policy.ts";
import { packImageUrl } from "../../../shared/images.ts";
import { IMAGE_BASE } from "../../app/image_base.ts";
import { usePacks } from "../../app/use_packs.ts";
import { useMediaQuery } from "../../app/use_media_query.ts";
import { announce } from "../../app/announcer/announcements.ts";
import { testerCards } from "./tester_cards.ts";

/*
 * Partner shops and reviews are content the owner will replace with real partnerships and real
 * review links; the partners are real keyboard community shops, the reviews are samples.
 */
const PARTNERS = [
  {
    name: "NovelKeys",
    url: "https://novelkeys.com/",
    text: "Switches, keycaps and keyboards from Ohio.",
  },
  {
    name: "KBDfans",
    url: "https://kbdfans.com/",
    text: "Keyboard kits, plates and parts for custom builds.",
  },
] as const;

const REVIEW_SITE = "Trustpilot";
const REVIEW_URL = "https://www.trustpilot.com/review/switchtester.shop";

const REVIEWS = [
  {
    author: "Maya R.",
    stars: 5,
    text:
      "Got the Starter Pack before building my first board. Turns out I'm a tactile person, which saved me from buying 90 switches I'd hate.",
  },
  {
    author: "Daniel K.",
    stars: 5,
    text:
      "My custom tester with transparent keycaps looks great on the desk, and every switch was exactly the one I picked.",
  },
  {
    author: "Priya S.",
    stars: 5,
    text:
      "Gave the Popular Pack to my brother. He spent the whole evening arguing Oil Kings versus Creams with himself.",
  },
  {
    author: "Tom H.",
    stars: 4,
    text:
      "Clean prints, switches sit snug, and it arrived sooner than promised. I'd love a 30-switch version.",
  },
  {
    author: "Lena M.",
    stars: 5,
    text: "The fidget cube lives next to my mouse now. Six different switches, zero regrets.",
  },
  {
    author: "Chris O.",
    stars: 5,
    text: "Finally settled the linear versus tactile debate at our office. Worth every cent.",
  },
] as const;

/** The shop's landing page: intro, gift guide, testers, partners, reviews and a way to the shop. */
export function HomePage() {
  return (
    <div className="page home">
      <section className="home-hero" aria-labelledby="home-title">
        <h1 id="home-title">Feel the switch before you buy the keyboard</h1>
        <p className="home-intro">
          3D-printed switch testers with real mechanical keyboard switches: press, compare and find
          the one you love. <strong>{STARTING_PRICE_TEXT}</strong>, with{" "}
          <strong>{SWITCH_COUNT_TEXT}</strong> to choose from.
        </p>
        <div className="row">
          <Link className="button" to="/shop">Shop testers</Link>
          <Link className="button secondary" to="/testers/custom">Build your own</Link>
        </div>
      </section>

      <Link className="card gift-box" to="/friendly-gift-guide">
        <span className="art-gift" aria-hidden="true" />
        <span>
          <strong className="gift-box-title">Looking for a gift?</strong>
          <span className="muted">
            Answer a few quick questions in our friendly gift guide and we'll pick the right tester.
          </span>
        </span>
        <span className="gift-box-cta" aria-hidden="true">Take the quiz →</span>
      </Link>

      <TesterCarousel />

      <section className="home-section" aria-labelledby="partners-title">
        <h2 id="partners-title">Our partners</h2>
        <ul className="partners">
          {PARTNERS.map((p) => (
            <li key={p.name}>
              <a className="card partner" href={p.url} target="_blank" rel="noopener noreferrer">
                <strong>{p.name}</strong>
                <span className="muted">{p.text}</span>
                <span className="visually-hidden">(opens in a new tab)</span>
              </a>
            </li>
          ))}
        </ul>
      </section>

      <ReviewsCarousel />

      <section className="card home-cta" aria-labelledby="cta-title">
        <h2 id="cta-title">Ready to find your switch?</h2>
        <p className="muted">
          Themed packs, a custom tester, a fidget cube and cases, all in one place.
        </p>
        <Link className="button" to="/shop">Browse the shop</Link>
      </section>
    </div>
  );
}

/** How many cards fit beside each other at a given carousel width. */
function cardsPerView(width: number): number {
  if (width < 560) return 1;
  if (width < 900) return 2;
  return 3;
}

/**
 * The testers (seven while every pack is on sale), one to three at a time by width. It does not loop (docs/product.md#carousels):
 * Previous is disabled on the first page and Next on the last. Tabbing onto a card that is out of
 * view scrolls it in, so keyboard users can also just walk through the links.
 */
function TesterCarousel() {
  const cards = testerCards(usePacks());
  const viewport = useRef<HTMLDivElement>(null);
  // The cards' widths come from the stylesheet (container queries with these same breakpoints),
  // so the server's HTML is laid out right at any width; the observer tells the buttons.
  const [perView, setPerView] = useState(3);
  const [wanted, setStart] = useState(0);
  const last = Math.max(0, cards.length - perView);
  // Clamped as it renders: a wider screen shows more cards, and a pack taken off sale leaves
  // fewer, so the last possible start moves left; a start past the end is never drawn.
  const start = Math.min(wanted, last);

  useEffect(() => {
    const element = viewport.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => {
      setPerView(cardsPerView(entry.contentRect.width));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  function go(to: number) {
    setStart(Math.max(0, Math.min(last, to)));
  }

  /**
   * Previous and Next say what is now shown; Tab moving onto a card out of view (which scrolls
   * it in) says nothing more than the card itself.
   */
  function step(by: number) {
    const to = Math.max(0, Math.min(last, start + by));
    go(to);
    announce(`Showing testers ${to + 1} to ${to + perView} of ${cards.length}`);
  }

  function reveal(index: number) {
    if (index < start) go(index);
    else if (index >= start + perView) go(index - perView + 1);
  }

  return (
    <section
      className="home-section carousel"
      aria-roledescription="carousel"
      aria-labelledby="testers-title"
    >
      <div className="carousel-head">
        <h2 id="testers-title">Pick your tester</h2>
        <div className="carousel-controls">
          <button
            type="button"
            className="icon-button"
            aria-label="Previous testers"
            aria-controls="tester-track"
            // aria-disabled: the button at the end keeps the focus (a disabled one drops it).
            aria-disabled={start === 0}
            onClick={() => start > 0 && step(-1)}
          >
            ←
          </button>
          <button
            type="button"
            className="icon-button"
            aria-label="Next testers"
            aria-controls="tester-track"
            aria-disabled={start >= last}
            onClick={() => start < last && step(1)}
          >
            →
          </button>
        </div>
      </div>
      <div className="carousel-viewport" ref={viewport}>
        <div
          id="tester-track"
          className="carousel-track"
          style={{ "--start": start } as CSSProperties}
        >
          {cards.map((card, i) => {
            const visible = i >= start && i < start + perView;
            return (
              <div
                key={card.path}
                className="carousel-slide"
                role="group"
                aria-roledescription="slide"
                aria-label={`${i + 1} of ${cards.length}: ${card.title}`}
                data-visible={visible}
                onFocus={() => reveal(i)}
              >
                <article className="card tester-card">
                  {card.image
                    ? (
                      <img
                        src={card.imageUrl ?? packImageUrl(IMAGE_BASE, card.image)}
                        alt={`${card.title}: a tester with ten switches`}
                        width={240}
                        height={240}
                        loading="lazy"
                      />
                    )
                    : (
                      <span
                        className="art-custom-tester"
                        role="img"
                        aria-label="A custom tester with switches of your choice"
                      />
                    )}
                  <h3>
                    <Link to={card.path} className="stretched-link">{card.title}</Link>
                  </h3>
                  <p className="muted">{card.blurb}</p>
                  <p className="price">{card.price}</p>
                </article>
              </div>
            );
          })}
        </div>
      </div>
    </section>
  );
}

/** Whether the shopper asked the OS for less motion; follows changes while the page is open. */
function usePrefersReducedMotion(): boolean {
  return useMediaQuery("(prefers-reduced-motion: reduce)");
}

/**
 * Reviews, one at a time. Unlike the tester carousel it loops, and it turns every
 * TIMINGS.reviewsAutoplayMs. Rotation pauses while the pointer or focus is inside (so nothing moves
 * under someone reading or tabbing), stays off under prefers-reduced-motion, and can be stopped
 * with its own button (WCAG 2.2.2).
 */
function ReviewsCarousel() {
  const reducedMotion = usePrefersReducedMotion();
  const [index, setIndex] = useState(0);
  const [autoplay, setAutoplay] = useState<boolean | null>(null);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  // Until the shopper presses the rotation button, the OS motion setting decides.
  const autoplayOn = autoplay ?? !reducedMotion;
  const rotating = autoplayOn && !hovered && !focused;
  const count = REVIEWS.length;

  useEffect(() => {
    if (!rotating) return;
    // Keyed on the index, so a manual step also restarts the full wait before the next turn.
    const timer = setTimeout(() => setIndex((i) => (i + 1) % count), TIMINGS.reviewsAutoplayMs);
    return () => clearTimeout(timer);
  }, [rotating, index, count]);

  return (
    <section
      className="home-section carousel reviews"
      aria-roledescription="carousel"
      aria-labelledby="reviews-title"
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setFocused(false);
      }}
    >
      <div className="carousel-head">
        <h2 id="reviews-title">What testers say</h2>
        <div className="carousel-controls">
          <button
            type="button"
            className="icon-button"
            aria-label={autoplayOn
              ? "Stop automatic review rotation"
              : "Start automatic review rotation"}
            onClick={() => setAutoplay(!autoplayOn)}
          >
            {autoplayOn ? "❚❚" : "▶"}
          </button>
          <button
            type="button"
            className="icon-button"
            aria-label="Previous review"
            aria-controls="review-track"
            onClick={() => setIndex((index - 1 + count) % count)}
          >
            ←
          </button>
          <button
            type="button"
            className="icon-button"
            aria-label="Next review"
            aria-controls="review-track"
            onClick={() => setIndex((index + 1) % count)}
          >
            →
          </button>
        </div>
      </div>
      <div id="review-track" className="review-track" aria-live={rotating ? "off" : "polite"}>
        {REVIEWS.map((review, i) => (
          <div
            key={review.author}
            className="card review"
            role="group"
            aria-roledescription="slide"
            aria-label={`Review ${i + 1} of ${count}`}
            hidden={i !== index}
          >
            <p className="stars">
              <span aria-hidden="true">
                {"★".repeat(review.stars)}
                {"☆".repeat(5 - review.stars)}
              </span>
              <span className="visually-hidden">{review.stars} out of 5 stars</span>
            </p>
            <blockquote>
              <p>{review.text}</p>
            </blockquote>
            <div className="review-caption">
              <strong className="review-author">{review.author}</strong>{" "}
              <a href={REVIEW_URL} target="_blank" rel="noopener noreferrer">
                Read on {REVIEW_SITE}
                <span className="visually-hidden">
                  : review by {review.author} (opens in a new tab)
                </span>
              </a>
            </div>
          </div>
        ))}
      </div>
      <div className="review-dots" aria-hidden="true">
        {REVIEWS.map((review, i) => (
          <span key={review.author} className={i === index ? "dot active" : "dot"} />
        ))}
      </div>
    </section>
  );
}
