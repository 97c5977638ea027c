import assert from "node:assert/strict";
import {
  answerQuiz,
  backQuiz,
  currentQuestion,
  QUIZ_QUESTIONS,
  QUIZ_START_ID,
  type QuizState,
  recommendations,
  startQuiz,
  withInStockAlternatives,
} from "../../shared/quiz.ts";
import { PACKS } from "../../shared/catalog/packs.ts";

/** Plays answers by their button label, so the tests read like the spec. */
function play(...labels: string[]): QuizState {
  let state = startQuiz();
  for (const label of labels) {
    const question = currentQuestion(state);
    assert.ok(question, `no question left for answer ${label}`);
    const index = question.answers.findIndex((a) => a.label === label);
    assert.ok(index >= 0, `no answer ${label} to "${question.text}"`);
    state = answerQuiz(state, index);
  }
  return state;
}

function questionText(state: QuizState): string | undefined {
  return currentQuestion(state)?.text;
}

function names(state: QuizState): string[] {
  return recommendations(state).map((r) => r.name);
}

const HAS_KEYBOARD = "Does the recipient have a keyboard?";
const PICKED = "Did they pick or build it themselves?";
const HOW_MANY = "How many keyboards?";
const KNOWS_TYPE = "Do you know their preferred switch type?";

Deno.test("the questions and their answers are as the spec words them", () => {
  const questions = Object.values(QUIZ_QUESTIONS).map((q) => ({
    text: q.text,
    answers: q.answers.map((a) => a.label),
  }));
  assert.deepEqual(questions, [
    { text: HAS_KEYBOARD, answers: ["Yes", "No"] },
    { text: PICKED, answers: ["Yes", "No"] },
    { text: HOW_MANY, answers: ["Just 1", "More than 1"] },
    { text: KNOWS_TYPE, answers: ["Yes", "No idea"] },
  ]);
});

Deno.test("each question's id is its key, and every next id exists", () => {
  for (const [key, question] of Object.entries(QUIZ_QUESTIONS)) {
    assert.equal(question.id, key);
    for (const answer of question.answers) {
      if ("next" in answer.leadsTo) assert.ok(QUIZ_QUESTIONS[answer.leadsTo.next]);
    }
  }
  assert.ok(QUIZ_QUESTIONS[QUIZ_START_ID]);
});

Deno.test("every result names two existing packs", () => {
  const slugs = new Set(PACKS.map((p) => p.slug));
  for (const question of Object.values(QUIZ_QUESTIONS)) {
    for (const answer of question.answers) {
      if ("result" in answer.leadsTo) {
        assert.equal(answer.leadsTo.result.length, 2);
        for (const slug of answer.leadsTo.result) assert.ok(slugs.has(slug), slug);
      }
    }
  }
});

Deno.test("start: first question, no result", () => {
  const state = startQuiz();
  assert.deepEqual(state, { history: [QUIZ_START_ID], result: null });
  assert.equal(questionText(state), HAS_KEYBOARD);
  assert.deepEqual(recommendations(state), []);
});

Deno.test("No keyboard gives Starter Pack + Popular Pack", () => {
  const state = play("No");
  assert.deepEqual(state.result, ["starter-pack", "popular"]);
  assert.deepEqual(names(state), ["Starter Pack", "Popular Pack"]);
  assert.equal(currentQuestion(state), null);
});

Deno.test("Yes leads to 'Did they pick or build it themselves?'", () => {
  const state = play("Yes");
  assert.equal(questionText(state), PICKED);
  assert.equal(state.result, null);
  assert.deepEqual(recommendations(state), []);
});

Deno.test("Yes, did not pick it: Starter Pack + Popular Pack", () => {
  const state = play("Yes", "No");
  assert.deepEqual(state.result, ["starter-pack", "popular"]);
  assert.deepEqual(names(state), ["Starter Pack", "Popular Pack"]);
});

Deno.test("Yes, picked it, leads to 'How many keyboards?'", () => {
  assert.equal(questionText(play("Yes", "Yes")), HOW_MANY);
});

Deno.test("Just 1 keyboard: Unique Kit + Popular Pack", () => {
  const state = play("Yes", "Yes", "Just 1");
  assert.deepEqual(state.result, ["unique", "popular"]);
  assert.deepEqual(names(state), ["Unique Kit", "Popular Pack"]);
});

Deno.test("More than 1 leads to 'Do you know their preferred switch type?'", () => {
  assert.equal(questionText(play("Yes", "Yes", "More than 1")), KNOWS_TYPE);
});

Deno.test("More than 1, knows the type: Linear + Tactile collections", () => {
  const state = play("Yes", "Yes", "More than 1", "Yes");
  assert.deepEqual(state.result, ["linear", "tactile"]);
  assert.deepEqual(names(state), ["Linear Collection", "Tactile Collection"]);
});

Deno.test("More than 1, no idea: Aesthetic Pack + Unique Kit", () => {
  const state = play("Yes", "Yes", "More than 1", "No idea");
  assert.deepEqual(state.result, ["aesthetic", "unique"]);
  assert.deepEqual(names(state), ["Aesthetic Pack", "Unique Kit"]);
});

Deno.test("history lists the questions asked, current last, and keeps it at a result", () => {
  assert.deepEqual(play("Yes", "Yes").history, ["has-keyboard", "picked-it", "how-many"]);
  assert.deepEqual(play("Yes", "Yes", "More than 1", "No idea").history, [
    "has-keyboard",
    "picked-it",
    "how-many",
    "knows-type",
  ]);
  assert.deepEqual(play("No").history, ["has-keyboard"]);
});

Deno.test("recommendations carry the pack's id, name, description, image and slug", () => {
  const [starter, popular] = recommendations(play("No"));
  const starterPack = PACKS.find((p) => p.slug === "starter-pack")!;
  assert.deepEqual(starter, {
    id: 384,
    name: "Starter Pack",
    description: starterPack.description,
    image: "pack-starter",
    slug: "starter-pack",
    insteadOf: null,
  });
  assert.equal(popular.id, 380);
  assert.equal(popular.image, "pack-popular");
});

Deno.test("recommendation ids for every result match the spec's pack ids", () => {
  const ids = (s: QuizState) => recommendations(s).map((r) => r.id);
  assert.deepEqual(ids(play("No")), [384, 380]);
  assert.deepEqual(ids(play("Yes", "No")), [384, 380]);
  assert.deepEqual(ids(play("Yes", "Yes", "Just 1")), [31, 380]);
  assert.deepEqual(ids(play("Yes", "Yes", "More than 1", "Yes")), [386, 382]);
  assert.deepEqual(ids(play("Yes", "Yes", "More than 1", "No idea")), [33, 31]);
});

Deno.test("recommendations throw on a slug that is not a pack", () => {
  assert.throws(
    () => recommendations({ history: [QUIZ_START_ID], result: ["nope"] }),
    /unknown pack: nope/,
  );
});

Deno.test("answering never changes the state it was given", () => {
  const before = play("Yes");
  const snapshot = structuredClone(before);
  const after = answerQuiz(before, 0);
  assert.deepEqual(before, snapshot);
  assert.notEqual(after, before);
  assert.notEqual(after.history, before.history);
});

Deno.test("reaching a result does not share arrays with the state or the tree", () => {
  const before = play("Yes", "Yes", "More than 1");
  const after = answerQuiz(before, 0);
  assert.notEqual(after.history, before.history);
  after.result!.push("mutated");
  assert.deepEqual(answerQuiz(before, 0).result, ["linear", "tactile"]);
});

Deno.test("answering once a result is shown changes nothing", () => {
  const done = play("No");
  assert.equal(answerQuiz(done, 0), done);
  assert.equal(answerQuiz(done, 1), done);
});

Deno.test("an answer index the question lacks throws a RangeError", () => {
  const state = startQuiz();
  for (const bad of [-1, 2, 1.5, NaN]) {
    assert.throws(() => answerQuiz(state, bad), RangeError, `index ${bad}`);
  }
});

Deno.test("Back on the first question stays there", () => {
  const state = startQuiz();
  const back = backQuiz(state);
  assert.deepEqual(back, { history: [QUIZ_START_ID], result: null });
  assert.equal(questionText(back), HAS_KEYBOARD);
});

Deno.test("Back from each question returns to the previous one", () => {
  assert.equal(questionText(backQuiz(play("Yes"))), HAS_KEYBOARD);
  assert.equal(questionText(backQuiz(play("Yes", "Yes"))), PICKED);
  assert.equal(questionText(backQuiz(play("Yes", "Yes", "More than 1"))), HOW_MANY);
});

Deno.test("Back from each result returns to the question that produced it", () => {
  const cases: [string[], string][] = [
    [["No"], HAS_KEYBOARD],
    [["Yes", "No"], PICKED],
    [["Yes", "Yes", "Just 1"], HOW_MANY],
    [["Yes", "Yes", "More than 1", "Yes"], KNOWS_TYPE],
    [["Yes", "Yes", "More than 1", "No idea"], KNOWS_TYPE],
  ];
  for (const [answers, question] of cases) {
    const back = backQuiz(play(...answers));
    assert.equal(back.result, null, answers.join(" > "));
    assert.equal(questionText(back), question, answers.join(" > "));
    assert.deepEqual(recommendations(back), []);
  }
});

Deno.test("Back repeatedly walks to the start and then stays", () => {
  let state = play("Yes", "Yes", "More than 1", "Yes");
  const seen: (string | undefined)[] = [];
  for (let i = 0; i < 6; i++) {
    state = backQuiz(state);
    seen.push(questionText(state));
  }
  assert.deepEqual(seen, [KNOWS_TYPE, HOW_MANY, PICKED, HAS_KEYBOARD, HAS_KEYBOARD, HAS_KEYBOARD]);
});

Deno.test("Back then a different answer takes the other branch", () => {
  const state = answerQuiz(backQuiz(play("Yes", "Yes", "More than 1", "Yes")), 1);
  assert.deepEqual(state.result, ["aesthetic", "unique"]);
});

Deno.test("Back never changes the state it was given", () => {
  const before = play("Yes", "Yes");
  const snapshot = structuredClone(before);
  const back = backQuiz(before);
  assert.deepEqual(before, snapshot);
  assert.notEqual(back, before);
  const done = play("No");
  const doneSnapshot = structuredClone(done);
  backQuiz(done);
  assert.deepEqual(done, doneSnapshot);
});

Deno.test("each start gives its own object", () => {
  const a = startQuiz();
  a.history.push("x");
  assert.deepEqual(startQuiz().history, [QUIZ_START_ID]);
});

Deno.test("currentQuestion is null for an unknown question id", () => {
  assert.equal(currentQuestion({ history: ["gone"], result: null }), null);
});

const ALL_PACKS = PACKS.map((p) => p.slug);
const without = (...out: string[]) => new Set(ALL_PACKS.filter((s) => !out.includes(s)));

Deno.test("an out-of-stock pick is followed by an in-stock alternative, never one shown already", () => {
  const picks = recommendations(play("Yes", "Yes", "More than 1", "No idea"));
  // Everything in stock: the picks as they are.
  assert.deepEqual(withInStockAlternatives(picks, without()), picks);
  // Aesthetic out: Unique is shown already, so Popular is offered right after it.
  const offered = withInStockAlternatives(picks, without("aesthetic"));
  assert.deepEqual(offered.map((p) => [p.slug, p.insteadOf]), [
    ["aesthetic", null],
    ["popular", "aesthetic"],
    ["unique", null],
  ]);
  // Both out: each gets its own alternative.
  const both = withInStockAlternatives(picks, without("aesthetic", "unique"));
  assert.deepEqual(both.map((p) => [p.slug, p.insteadOf]), [
    ["aesthetic", null],
    ["popular", "aesthetic"],
    ["unique", null],
    ["starter-pack", "unique"],
  ]);
});

Deno.test("every quiz result offers something in stock while any pack is", () => {
  const results = [
    play("No"),
    play("Yes", "Yes", "Just 1"),
    play("Yes", "Yes", "More than 1", "Yes"),
    play("Yes", "Yes", "More than 1", "No idea"),
  ];
  for (const state of results) {
    for (const left of ALL_PACKS) {
      const offered = withInStockAlternatives(recommendations(state), new Set([left]));
      assert.ok(offered.some((p) => p.slug === left), `${state.result} with only ${left} in stock`);
    }
  }
  // Nothing in stock: nothing to offer instead, and the picks still show.
  const picks = recommendations(play("No"));
  assert.deepEqual(withInStockAlternatives(picks, new Set()), picks);
});
