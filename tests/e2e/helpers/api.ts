import assert from "node:assert/strict";

/**
 * POSTs to the shop's API, as a test sets up what the page then shows; anything but 200 fails the
 * test with the answer's text.
 */
// deno-lint-ignore no-explicit-any
export async function postOk(base: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${base}${path}`, {
    method: "POST",
    headers: body ? { "Content-Type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  assert.equal(res.status, 200, `${path}: ${await res.clone().text()}`);
  return await res.json();
}

/** GETs from the shop's API; anything but 200 fails the test with the answer's text. */
export async function getOk<T>(base: string, path: string): Promise<T> {
  const res = await fetch(`${base}${path}`);
  assert.equal(res.status, 200, `${path}: ${await res.clone().text()}`);
  return await res.json() as T;
}
