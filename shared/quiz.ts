/**
 * The gift-guide quiz (docs/product.md#quiz) as data plus an immutable state machine, so the
 * page only renders and the paths can be tested without a browser.
 */

// PACK_INFO, not PACKS: the quiz needs no switches, so the gift guide skips the switch list.
import { PACK_INFO } from "./catalog/pack_info.ts";

/** Where an answer leads: to another question, or to the packs to recommend. */
export type QuizOutcome = { next: string } | { result: readonly string[] };

/** One button under a question. */
export interface QuizAnswer {
  label: string;
  leadsTo: QuizOutcome;
}

/** One step of the quiz. */
export interface QuizQuestion {
  id: string;
  text: string;
  answers: readonly QuizAnswer[];
}

/** Id of the question the quiz opens with. */
export const QUIZ_START_ID = "has-keyboard";

/** The decision tree, keyed by question id; results are pack slugs from PACK_INFO. */
export const QUIZ_QUESTIONS: Readonly<Record<string, QuizQuestion>> = {
  "has-keyboard": {
    id: "has-keyboard",
    text: "Does the recipient have a keyboard?",
    answers: [
      { label: "Yes", leadsTo: { next: "picked-it" } },
      { label: "No", leadsTo: { result: ["starter-pack", "popular"] } },
    ],
  },
  "picked-it": {
    id: "picked-it",
    text: "Did they pick or build it themselves?",
    answers: [
      { label: "Yes", leadsTo: { next: "how-many" } },
      { label: "No", leadsTo: { result: ["starter-pack", "popular"] } },
    ],
  },
  "how-many": {
    id: "how-many",
    text: "How many keyboards?",
    answers: [
      { label: "Just 1", leadsTo: { result: ["unique", "popular"] } },
      { label: "More than 1", leadsTo: { next: "knows-type" } },
    ],
  },
  "knows-type": {
    id: "knows-type",
    text: "Do you know their preferred switch type?",
    answers: [
      { label: "Yes", leadsTo: { result: ["linear", "tactile"] } },
      { label: "No idea", leadsTo: { result: ["aesthetic", "unique"] } },
    ],
  },
};

/**
 * Where the shopper is: the questions asked so far (the current one last) and, once answered
 * to the end, the recommended pack slugs. The question that led to a result stays last in the
 * history so Back can return to it.
 */
export type QuizState = { history: string[]; result: string[] | null };

/** A pack recommended at the end of the quiz, as the result cards show it. */
export interface QuizRecommendation {
  /** Product id of the pack without keycaps. */
  id: number;
  name: string;
  description: string;
  /** Pack image base name; the page makes the URL, since only it knows the image base (CDN). */
  image: string;
  /** URL segment under /testers/. */
  slug: string;
  /** Set on a pack offered because this recommended one (a slug) is out of stock. */
  insteadOf: string | null;
}

/**
 * Where to turn, in order, when a recommended pack cannot be bought: the closest packs in spirit
 * first, the broad ones last, so an alternative always exists while any pack is in stock.
 */
const ALTERNATIVES: Readonly<Record<string, readonly string[]>> = {
  "starter-pack": ["popular", "linear", "tactile", "unique", "aesthetic"],
  "popular": ["starter-pack", "linear", "tactile", "unique", "aesthetic"],
  "unique": ["aesthetic", "popular", "starter-pack", "linear", "tactile"],
  "linear": ["popular", "starter-pack", "tactile", "unique", "aesthetic"],
  "tactile": ["popular", "starter-pack", "linear", "unique", "aesthetic"],
  "aesthetic": ["unique", "popular", "starter-pack", "linear", "tactile"],
};

/** A fresh quiz on its first question; Start Over uses it too. */
export function startQuiz(): QuizState {
  return { history: [QUIZ_START_ID], result: null };
}

/** The question on screen, or null when the result is shown. */
export function currentQuestion(state: QuizState): QuizQuestion | null {
  if (state.result !== null) return null;
  const id = state.history[state.history.length - 1];
  return QUIZ_QUESTIONS[id] ?? null;
}

/**
 * Picks the answer at `answerIndex` of the current question. Returns the same state when a
 * result is already shown (a late second click must not change the outcome). Throws a
 * RangeError for an index the question does not have, since only a programming error gets one.
 */
export function answerQuiz(state: QuizState, answerIndex: number): QuizState {
  const question = currentQuestion(state);
  if (question === null) return state;
  const answer = question.answers[answerIndex];
  if (!Number.isInteger(answerIndex) || answer === undefined) {
    throw new RangeError(`Question ${question.id} has no answer ${answerIndex}`);
  }
  const outcome = answer.leadsTo;
  if ("next" in outcome) return { history: [...state.history, outcome.next], result: null };
  return { history: [...state.history], result: [...outcome.result] };
}

/**
 * Back: from a result to the question that produced it, from a question to the one before.
 * On the first question there is nowhere to go, so the same state is returned.
 */
export function backQuiz(state: QuizState): QuizState {
  if (state.result !== null) return { history: [...state.history], result: null };
  if (state.history.length <= 1) return state;
  return { history: state.history.slice(0, -1), result: null };
}

/**
 * The packs to show for the result, in the order the tree lists them; empty while questions
 * remain. Throws on a slug missing from PACK_INFO, so a catalogue edit that breaks the quiz fails
 * in the tests rather than showing an empty card.
 */
export function recommendations(state: QuizState): QuizRecommendation[] {
  if (state.result === null) return [];
  return state.result.map((slug) => {
    const pack = PACK_INFO.find((p) => p.slug === slug);
    if (!pack) throw new Error(`Quiz recommends an unknown pack: ${slug}`);
    return recommendationOf(pack, null);
  });
}

/**
 * The recommendations, each out-of-stock one followed by the first in-stock pack of its
 * alternatives that is not shown already, so the quiz never ends on nothing to buy. `inStock`
 * holds the slugs that can be bought now.
 */
export function withInStockAlternatives(
  picks: readonly QuizRecommendation[],
  inStock: ReadonlySet<string>,
): QuizRecommendation[] {
  const shown = new Set(picks.map((p) => p.slug));
  return picks.flatMap((pick) => {
    if (inStock.has(pick.slug)) return [pick];
    const slug = ALTERNATIVES[pick.slug]?.find((s) => inStock.has(s) && !shown.has(s));
    const pack = slug ? PACK_INFO.find((p) => p.slug === slug) : undefined;
    if (!pack) return [pick];
    shown.add(pack.slug);
    return [pick, recommendationOf(pack, pick.slug)];
  });
}

function recommendationOf(pack: (typeof PACK_INFO)[number], insteadOf: string | null) {
  return {
    id: pack.id,
    name: pack.title,
    description: pack.description,
    image: pack.image,
    slug: pack.slug,
    insteadOf,
  };
}
