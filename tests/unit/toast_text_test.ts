/**
 * What the announcer says for a toast: the words it draws, links included, with nothing hidden
 * from assistive technology and no words run together.
 */
import assert from "node:assert/strict";
import { createElement } from "react";
import { textOf } from "../../client/app/announcer/toast_text.ts";

Deno.test("a toast's plain text is said as written, whitespace folded", () => {
  assert.equal(textOf("Message sent successfully!"), "Message sent successfully!");
  assert.equal(textOf("  Two\n  lines "), "Two lines");
  assert.equal(textOf(null), "");
  assert.equal(textOf(false), "");
});

Deno.test("a toast with an action says its message and the action's label, apart", () => {
  function Link(props: { to: string; children: string }) {
    return createElement("a", { href: props.to }, props.children);
  }
  const drawn = createElement(
    "span",
    { className: "toast-with-action" },
    "Added to cart",
    createElement(Link, { to: "/cart", children: "View Cart" }),
  );
  assert.equal(textOf(drawn), "Added to cart View Cart");
});

Deno.test("numbers are read, icons hidden from assistive technology are not", () => {
  const drawn = createElement(
    "span",
    null,
    createElement("span", { "aria-hidden": "true" }, "✓"),
    3,
    " orders marked as shipped",
  );
  assert.equal(textOf(drawn), "3 orders marked as shipped");
});
