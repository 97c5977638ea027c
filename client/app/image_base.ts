import { LOCAL_IMAGE_BASE } from "../../shared/images.ts";

/**
 * Where images come from: the shop itself, or the CDN the server names in a meta tag. On the
 * server, which renders the same pages, setImageBase gives it from the configuration.
 */
export let IMAGE_BASE =
  (typeof document === "undefined"
    ? null
    : document.querySelector<HTMLMetaElement>('meta[name="image-base"]')?.content) ||
  LOCAL_IMAGE_BASE;

/** The server's image base (its configuration), for the pages it renders. */
export function setImageBase(base: string): void {
  IMAGE_BASE = base || LOCAL_IMAGE_BASE;
}
