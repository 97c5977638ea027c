import { useEffect, useRef, useState } from "react";
import { Link } from "react-router-dom";
import {
  answerQuiz,
  backQuiz,
  currentQuestion,
  type QuizRecommendation,
  recommendations,
  startOver,
  startQuiz,
} from "../../../shared/quiz.ts";
import { LOCAL_IMAGE_BASE } from "../../../shared/images.ts";
import { addItemToCart } from "../../app/cart/cart_service.ts";
import { toastAddedWithLink, toastAddFailed } from "../../app/cart/cart_toasts.tsx";
import { AddToCartButton } from "../../app/components/add_to_cart_button.tsx";
import { IMAGE_BASE } from "../../app/image_base.ts";
import { useAvailability } from "../../app/use_availability.ts";

/** The gift-guide quiz: one question at a time, then the packs it recommends. */
export function GiftGuidePage() {
  const [quiz, setQuiz] = useState(startQuiz);
  const question = currentQuestion(quiz);
  const picks = recommendations(quiz);
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
          <button type="button" className="link-button" onClick={() => setQuiz(startOver())}>
            Start Over
          </button>
        </div>
      </section>
    </div>
  );
}

/** One recommended pack, with its own availability check. */
function Recommendation({ pick }: { pick: QuizRecommendation }) {
  const available = useAvailability("testers", pick.id);
  // shared/quiz.ts names the shop's own image path; a configured image CDN serves the same names.
  const imageUrl = pick.imageUrl.startsWith(`${LOCAL_IMAGE_BASE}/`)
    ? IMAGE_BASE + pick.imageUrl.slice(LOCAL_IMAGE_BASE.length)
    : pick.imageUrl;

  async function add() {
    try {
      await addItemToCart(pick.id);
      toastAddedWithLink("Added to cart", "View Cart");
    } catch (err) {
      toastAddFailed(err, "Failed to add to cart. Please try again.");
    }
  }

  return (
    <article
      className={`card product-card recommendation${available === false ? " unavailable" : ""}`}
      aria-labelledby={`pick-${pick.id}`}
    >
      <div className="product-image-wrap">
        <img
          className="product-image"
          src={imageUrl}
          alt={`${pick.name}: a tester holding ten switches`}
          width={240}
          height={240}
        />
        {available === false && <span className="stock-overlay">Out of Stock</span>}
      </div>
      <h3 id={`pick-${pick.id}`}>{pick.name}</h3>
      <p className="muted">{pick.description}</p>
      <div className="row product-actions">
        <Link className="button secondary" to={`/testers/${pick.slug}`}>
          About<span className="visually-hidden">the {pick.name}</span>
        </Link>
        <AddToCartButton available={available} onAdd={add} />
      </div>
    </article>
  );
}
