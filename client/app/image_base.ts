import { LOCAL_IMAGE_BASE } from "../../shared/images.ts";

/** Where images come from: the shop itself, or the CDN the server names in a meta tag. */
export const IMAGE_BASE = document.querySelector<HTMLMetaElement>('meta[name="image-base"]')
  ?.content || LOCAL_IMAGE_BASE;
