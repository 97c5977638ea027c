/**
 * Sign-up rules shared by the API and the sign-up page, kept free of zod so the page stays small.
 */

/** The spec's messages for account fields. */
export const EMAIL_MESSAGE = "Please enter a valid email address";
export const PASSWORD_MESSAGE =
  "Password must be at least 8 characters long and contain uppercase, lowercase, and numbers";

/** Sign-up strips HTML tags and trims (docs/product.md#validation) before checking. */
export function stripTags(value: string): string {
  return value.replace(/<[^>]*>?/g, "").trim();
}

/** Whether a password meets the rule of PASSWORD_MESSAGE. */
export function isStrongPassword(password: string): boolean {
  return password.length >= 8 && /[a-z]/.test(password) && /[A-Z]/.test(password) &&
    /\d/.test(password);
}
