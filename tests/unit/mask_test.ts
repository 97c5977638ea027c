import assert from "node:assert/strict";
import { maskAddress, maskEmail, maskOrderNumber, maskTracking } from "../../shared/mask.ts";

Deno.test("maskEmail keeps the first 3 characters and the domain", () => {
  assert.equal(maskEmail("johnsmith@example.com"), "joh***@example.com");
  assert.equal(maskEmail("abc@shop.io"), "abc***@shop.io");
});

Deno.test("maskEmail with a short local part keeps what it has, never the @", () => {
  assert.equal(maskEmail("jo@x.com"), "jo***@x.com");
  assert.equal(maskEmail("j@x.com"), "j***@x.com");
  assert.equal(maskEmail("@x.com"), "***@x.com");
});

Deno.test("maskEmail splits at the last @", () => {
  assert.equal(maskEmail('"a@b"@example.com'), '"a@***@example.com');
});

Deno.test("maskEmail without an @ gives the first 3 characters then ***", () => {
  assert.equal(maskEmail("johnsmith"), "joh***");
  assert.equal(maskEmail("jo"), "jo***");
  assert.equal(maskEmail(""), "***");
});

Deno.test("maskEmail counts characters, not UTF-16 units", () => {
  assert.equal(maskEmail("😀😀😀😀@x.com"), "😀😀😀***@x.com");
});

Deno.test("maskAddress always gives ***", () => {
  assert.equal(maskAddress("1 Infinite Loop"), "***");
  assert.equal(maskAddress(""), "***");
});

Deno.test("maskTracking shows *** and the last 4 characters", () => {
  assert.equal(maskTracking("9400111899223344551234"), "***1234");
  assert.equal(maskTracking("12345"), "***2345");
  assert.equal(maskTracking("1234"), "***1234");
});

Deno.test("maskTracking leaves a number shorter than 4 characters as it is", () => {
  assert.equal(maskTracking("123"), "123");
  assert.equal(maskTracking("1"), "1");
  assert.equal(maskTracking(""), "");
});

Deno.test("maskOrderNumber keeps the first 2 and last 8 characters", () => {
  assert.equal(maskOrderNumber("AB1234567890CDEFGHIJ"), "AB***CDEFGHIJ");
  assert.equal(maskOrderNumber("ABCDEFGHIJK"), "AB***DEFGHIJK");
});

Deno.test("maskOrderNumber of 10 characters or fewer keeps only the first 2", () => {
  assert.equal(maskOrderNumber("ABCDEFGHIJ"), "AB***");
  assert.equal(maskOrderNumber("ABC"), "AB***");
  assert.equal(maskOrderNumber("A"), "A***");
  assert.equal(maskOrderNumber(""), "***");
});
