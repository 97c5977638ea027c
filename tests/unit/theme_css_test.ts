/**
 * The dark theme is colours only: the rules it selects set colour variables and `color-scheme`,
 * nothing else. The browser tests rely on it: they measure layout in the light theme alone and run
 * only axe's colour rules in the dark one (tests/e2e/helpers/layout.ts and axe.ts), since a theme
 * that changed no size or markup can break nothing else. A dark rule that sets anything more
 * fails here, and those checks must then cover the dark theme whole again.
 */
import assert from "node:assert/strict";

const STYLES = new URL("../../client/styles/", import.meta.url);

/** A colour: a hex, rgb()/hsl() or a variable holding one. */
const COLOUR = /^(#[0-9a-f]{3,8}|(rgb|rgba|hsl|hsla)\([^)]*\)|var\(--[\w-]+\)|transparent)$/i;

/** Every rule of `css` whose selector names the theme, as [selector, body]. */
function themeRules(css: string): [string, string][] {
  const rules: [string, string][] = [];
  const withoutComments = css.replace(/\/\*[\s\S]*?\*\//g, "");
  for (const match of withoutComments.matchAll(/([^{}]+)\{([^{}]*)\}/g)) {
    const selector = match[1].trim();
    if (/data-theme|prefers-color-scheme/.test(selector)) rules.push([selector, match[2]]);
  }
  return rules;
}

/** The declarations of a rule body that are not a colour variable or `color-scheme`. */
function notColours(body: string): string[] {
  return body.split(";").map((d) => d.trim()).filter(Boolean).filter((declaration) => {
    const [name, ...rest] = declaration.split(":");
    const value = rest.join(":").trim();
    if (name.trim() === "color-scheme") return false;
    return !(name.trim().startsWith("--") && COLOUR.test(value));
  });
}

Deno.test("the dark theme's rules set colours and the colour scheme, nothing else", async () => {
  let darkRules = 0;
  for await (const file of Deno.readDir(STYLES)) {
    if (!file.name.endsWith(".css")) continue;
    const css = await Deno.readTextFile(new URL(file.name, STYLES));
    // A media query for the OS's scheme would be a second way in; the theme script decides.
    assert.doesNotMatch(css, /prefers-color-scheme/, `${file.name} keys styles on the OS scheme`);
    for (const [selector, body] of themeRules(css)) {
      darkRules++;
      assert.deepEqual(notColours(body), [], `${file.name}: ${selector}`);
    }
  }
  assert.ok(darkRules > 0, "the dark theme's rule was found");
});

Deno.test("the check finds what is not a colour in a theme's rule", () => {
  const [[selector, body]] = themeRules(
    ':root[data-theme="dark"] { --text: #fff; --gap: 12px; color-scheme: dark; font-size: 18px }',
  );
  assert.equal(selector, ':root[data-theme="dark"]');
  assert.deepEqual(notColours(body), ["--gap: 12px", "font-size: 18px"]);
});
