import type { SwitchView } from "../../../shared/api_types.ts";
import { switchImageUrl } from "../../../shared/images.ts";
import { toCents } from "../../../shared/pricing.ts";
import { IMAGE_BASE } from "../../app/image_base.ts";
import type { SwitchDrop } from "./use_switch_drops.ts";

/** A switch as the configurators show it: the API's fields plus what the page derives once. */
export interface SwitchChoice extends SwitchView {
  imageUrl: string;
  /** extraPrice in cents, so sums are exact; the server prices the cart again anyway. */
  extraPriceCents: number;
  /** Units left for this shopper (live stock less their cart), once known. */
  left?: number;
  /** The switch's drop, when it has one the configurators show. */
  drop?: SwitchDrop;
}

export function toSwitchChoice(sw: SwitchView): SwitchChoice {
  return {
    ...sw,
    // The server sends a URL only for an uploaded image; the generated one is derived here.
    imageUrl: sw.imageUrl ?? switchImageUrl(IMAGE_BASE, sw.image),
    extraPriceCents: toCents(sw.extraPrice),
  };
}
