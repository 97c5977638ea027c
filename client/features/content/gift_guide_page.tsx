import { useEffect, useRef, useState } from "react";
import {
  answerQuiz,
  backQuiz,
  currentQuestion,
  type QuizRecommendation,
  recommendations,
  startQuiz,
  withInStockAlternatives,
} from "../../../shared/quiz.ts";
import type { ProductView } from "../../../shared/api_types.ts";
import { usePacks } from "../../app/use_packs.ts";
import { formatCents } from "../../../shared/pricing.ts";
import { api } from "../../app/api.ts";
import { useRequest } from "../../app/use_request.ts";
import { packImageUrl } from "../../../shared/images.ts";
import { addItemToCart } from "../../app/cart/cart_service.ts";
import { toastAddedWithLink, toastAddFailed } from "../../app/cart/cart_toasts.tsx";
import { ProductCard } from "../../app/components/product_card.tsx";
import { IMAGE_BASE } from "../../app/image_base.ts";

/** The gift-guide quiz: one question at a time, then the packs it recommends. */
export function GiftGuidePage() {
  const [quiz, setQuiz] = useState(startQuiz);
  const question = currentQuestion(quiz);
  const inStock = useInStockPacks(quiz.result !== null);
  const picks = inStock
    ? withInStockAlternatives(recommendations(quiz), inStock)
    : recommendations(quiz);
  const heading = useRef<HTMLHeadingElement>(null);
  const first = useRef(true);

  // Each step replaces the buttons the shopper just pressed, so focus would fall back to the
  // page; move it to the new step's heading instead (not on first load, which keeps page focus).
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    heading.current?.focus();
  }, [quiz]);

  return (
    <div className="page gift-guide">
      <h1>Friendly gift guide</h1>
      <div className="gift-guide-intro">
        <span className="art-gift" aria-hidden="true" />
        <p className="muted">
          Buying for a keyboard fan? Answer a few questions and we'll suggest the testers they'll
          enjoy most.
        </p>
      </div>

      <section className="card quiz" aria-labelledby="quiz-step">
        {question
          ? (
            <>
              <p className="muted small">Question {quiz.history.length}</p>
              <h2 id="quiz-step" ref={heading} tabIndex={-1}>{question.text}</h2>
              <div className="quiz-answers">
                {question.answers.map((answer, i) => (
                  <button
                    key={answer.label}
                    type="button"
                    className="button secondary quiz-answer"
                    onClick={() => setQuiz((q) => answerQuiz(q, i))}
                  >
                    {answer.label}
                  </button>
                ))}
              </div>
            </>
          )
          : (
            <>
              <h2 id="quiz-step" ref={heading} tabIndex={-1}>Our picks for them</h2>
              <ul className="grid quiz-results">
                {picks.map((pick) => (
                  <li key={pick.id}>
                    {pick.insteadOf && (
                      <p className="quiz-instead small">
                        In stock now, instead of the{" "}
                        {picks.find((p) => p.slug === pick.insteadOf)?.name}
                      </p>
                    )}
                    <Recommendation pick={pick} />
                  </li>
                ))}
              </ul>
            </>
          )}
        <div className="row quiz-nav">
          <button
            type="button"
            className="button secondary"
            disabled={question !== null && quiz.history.length <= 1}
            onClick={() => setQuiz(backQuiz)}
          >
            Back
          </button>
          <button type="button" className="link-button" onClick={() => setQuiz(startQuiz())}>
            Start Over
          </button>
        </div>
      </section>
    </div>
  );
}

/**
 * The packs that can be bought now (their own availability, without keycaps), once the result is
 * shown; null until known, when the picks show as the quiz has them.
 */
function useInStockPacks(wanted: boolean): ReadonlySet<string> | null {
  const products = useRequest(
    wanted ? "products" : null,
    (signal) => api<ProductView[]>("/api/products", { signal }),
  );
  if (products.data === null) return null;
  return new Set(
    products.data.filter((p) => p.packSlug && !p.withKeycaps && p.available)
      .map((p) => p.packSlug!),
  );
}

/** One recommended pack: the shop's product card with its price, and the guide's toasts. */
function Recommendation({ pick }: { pick: QuizRecommendation }) {
  // The price the pack page shows (the owner may have changed it since the quiz was written).
  const price = usePacks()?.find((p) => p.slug === pick.slug)?.basePriceCents;
  async function add() {
    try {
      await addItemToCart(pick.id);
      toastAddedWithLink("Added to cart", "View Cart");
    } catch (err) {
      toastAddFailed(err, "Failed to add to cart. Please try again.");
    }
  }

  return (
    <ProductCard
      id={pick.id}
      kind="testers"
      name={pick.name}
      description={pick.description}
      imageUrl={packImageUrl(IMAGE_BASE, pick.image)}
      imageAlt={`${pick.name}: a tester holding ten switches`}
      aboutPath={`/testers/${pick.slug}`}
      price={price === undefined ? undefined : formatCents(price)}
      onAdd={add}
      className="recommendation"
      titleIdPrefix="pick"
    />
  );
}
