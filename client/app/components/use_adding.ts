import { useEffect, useRef, useState } from "react";
import { TIMINGS } from "../../../shared/policy.ts";

/**
 * The busy state of an add-to-cart button: `adding` while the request runs, and `busy` until about
 * a second after it ends, so a double click cannot add twice. `run` ignores clicks while busy.
 */
export function useAdding(): {
  adding: boolean;
  busy: boolean;
  run: (add: () => Promise<void>) => Promise<void>;
} {
  const [adding, setAdding] = useState(false);
  const [locked, setLocked] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  async function run(add: () => Promise<void>) {
    if (adding || locked) return;
    setAdding(true);
    setLocked(true);
    try {
      await add();
    } finally {
      setAdding(false);
      timer.current = setTimeout(() => setLocked(false), TIMINGS.addButtonLockMs);
    }
  }

  return { adding, busy: adding || locked, run };
}
