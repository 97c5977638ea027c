/**
 * One page of each page template (a module under client/features/): pages sharing a template
 * (the six pack pages) differ only in data, so one of them stands for all.
 */
import { PAGES } from "../../../shared/routes.ts";

/** One path per page template, with sample values for its parameters. */
export const TEMPLATE_PATHS: readonly string[] = [
  ...new Map(PAGES.map((p) => [p.module, p.path.replace(/:\w+/, "abc")])).values(),
];
