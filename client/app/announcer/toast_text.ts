import { isValidElement, type ReactNode } from "react";

/**
 * The words of a toast as a screen reader should hear them: the text of what it draws, link
 * labels included ("Added to cart View Cart"), read from the elements' children without
 * rendering them.
 */
export function textOf(node: ReactNode): string {
  const parts: string[] = [];
  collect(node, parts);
  return parts.join(" ").replace(/\s+/g, " ").trim();
}

function collect(node: ReactNode, parts: string[]): void {
  if (node === null || node === undefined || typeof node === "boolean") return;
  if (typeof node === "string" || typeof node === "number" || typeof node === "bigint") {
    parts.push(String(node));
    return;
  }
  if (Array.isArray(node)) {
    for (const child of node) collect(child, parts);
    return;
  }
  if (isValidElement(node)) {
    const props = node.props as { children?: ReactNode; "aria-hidden"?: unknown };
    // What is hidden from assistive technology (an icon) is not read either.
    if (props["aria-hidden"] === true || props["aria-hidden"] === "true") return;
    collect(props.children, parts);
  }
}
