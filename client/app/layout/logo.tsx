import { useEffect, useState } from "react";
import { Link } from "react-router-dom";
import { SHOP_NAME, TIMINGS } from "../../../shared/policy.ts";

const COLORS = ["var(--logo-1)", "var(--logo-2)", "var(--logo-3)", "var(--logo-4)"];

/** The shop's name, cycling colours every second unless the visitor asked for reduced motion. */
export function Logo() {
  const [index, setIndex] = useState(0);
  useEffect(() => {
    if (matchMedia("(prefers-reduced-motion: reduce)").matches) return;
    const timer = setInterval(() => setIndex((i) => (i + 1) % COLORS.length), TIMINGS.logoColorMs);
    return () => clearInterval(timer);
  }, []);
  return (
    <Link to="/" className="logo" style={{ color: COLORS[index] }} data-color-index={index}>
      {SHOP_NAME}
    </Link>
  );
}
