import { useEffect, useRef, useState } from "react";
import type { TicketAnswer } from "../../../shared/drops.ts";
import { ApiError } from "../../app/api.ts";
import { fetchTicket } from "../../app/drops/drop_api.ts";
import { clockOffset } from "../../app/drops/drop_clock.ts";
import { forgetPlace, type KeptPlace, keptPlace } from "../../app/drops/drop_places.ts";
import { MIN_POLL_MS, pollDelayMs } from "../../app/drops/place_text.ts";

/** The shopper's place in a drop's line, as the page polls it. */
export interface PlaceState {
  /** undefined until the page has looked in this browser (never on the server). */
  place: KeptPlace | null | undefined;
  answer: TicketAnswer | null;
  /** The server's clock offset from the last answer. */
  offsetMs: number | null;
  /** Why the kept place was dropped (another shopper's, or unknown to the shop). */
  lost: string | null;
  /** After a join: the new place, polled at once. */
  setPlace: (place: KeptPlace) => void;
}

/**
 * Finds this browser's place in the drop and polls its state every few seconds (longer while the
 * page is hidden, longer after failures, never faster than MIN_POLL_MS), until the place's story
 * ends (sold out, or the turn lapsed). A place the shop refuses to this shopper is forgotten.
 */
export function usePlace(dropId: string): PlaceState {
  const [place, setPlace] = useState<KeptPlace | null | undefined>(undefined);
  const [answer, setAnswer] = useState<TicketAnswer | null>(null);
  const [offsetMs, setOffsetMs] = useState<number | null>(null);
  const [lost, setLost] = useState<string | null>(null);
  const lastPoll = useRef(0);

  useEffect(() => setPlace(keptPlace(dropId)), [dropId]);

  useEffect(() => {
    if (!place) return;
    let stopped = false;
    let failures = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let controller: AbortController | null = null;

    const schedule = () => {
      clearTimeout(timer);
      timer = setTimeout(poll, pollDelayMs(document.hidden, failures));
    };
    async function poll() {
      if (stopped || controller) return;
      lastPoll.current = Date.now();
      controller = new AbortController();
      try {
        const fresh = await fetchTicket(dropId, place!, controller.signal);
        if (stopped) return;
        failures = 0;
        setAnswer(fresh);
        setOffsetMs(clockOffset(fresh.serverTime, Date.now()));
        // Sold out and a lapsed turn are the end of this place: nothing more to ask.
        if (fresh.state === "soldOut" || fresh.state === "expired") {
          stopped = true;
          return;
        }
      } catch (err) {
        if (stopped || controller?.signal.aborted) return;
        if (err instanceof ApiError && (err.status === 403 || err.status === 404)) {
          // Not this shopper's (signed out, another cart) or not the shop's any more.
          forgetPlace(dropId);
          setLost(err.message);
          setAnswer(null);
          setPlace(null);
          stopped = true;
          return;
        }
        failures++;
      } finally {
        controller = null;
      }
      schedule();
    }
    // Back on the page: ask now, unless the last ask was moments ago.
    const onVisible = () => {
      if (document.hidden || stopped) return;
      if (Date.now() - lastPoll.current >= MIN_POLL_MS) poll();
      else schedule();
    };
    document.addEventListener("visibilitychange", onVisible);
    poll();
    return () => {
      stopped = true;
      clearTimeout(timer);
      controller?.abort();
      document.removeEventListener("visibilitychange", onVisible);
    };
  }, [dropId, place]);

  return {
    place,
    answer,
    offsetMs,
    lost,
    setPlace: (fresh) => {
      setLost(null);
      setPlace(fresh);
    },
  };
}
