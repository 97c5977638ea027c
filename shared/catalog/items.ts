import type { ItemData } from "./types.ts";

/** Accessories sold as they are, without choosing switches. */
export const ITEMS: readonly ItemData[] = [
  {
    id: 1,
    name: "Layout Tester",
    description:
      "A 3D-printed case laid out like a real keyboard row. Fill it with your own switches to try them in the positions you actually type on.",
    priceCents: 799,
    image: "layout-tester",
    bom: { kind: "layout-tester" },
  },
  {
    id: 2,
    name: "Fidget Cube Case",
    description:
      "The 3D-printed cube body on its own, without switches. Press in six of your favourites for a desk fidget that clicks the way you like.",
    priceCents: 399,
    image: "fidget-cube-case",
    bom: { kind: "cube-case" },
  },
];
