import { useEffect, useMemo, useState } from "react";
import type { DropPublicView, TicketState } from "../../../shared/drops.ts";
import { api } from "../../app/api.ts";
import { useApiRequest } from "../../app/use_request.ts";
import { fetchTicket } from "../../app/drops/drop_api.ts";
import { clockOffset, roomOpensAt, secondsUntil } from "../../app/drops/drop_clock.ts";
import { phaseNow } from "../../app/drops/drop_phase.ts";
import { keptPlace } from "../../app/drops/drop_places.ts";
import { dropCardNote, dropLocks, type PlaceState, placeStateOf } from "./switch_drop_rules.ts";

/** Every switch drop a configurator shows, in one read (embedded in a server-rendered page). */
export const SWITCH_DROPS_PATH = "/api/drops/switches";

/** A switch's drop as its card shows it now. */
export interface SwitchDrop {
  drop: DropPublicView;
  phase: DropPublicView["phase"];
  place: PlaceState;
  /** Not to be picked: the drop is scheduled or selling and this shopper has no admitted place. */
  locked: boolean;
  note: string;
}

/** The configurator's switch drops: by switch, the list, and whether the places are known. */
export interface SwitchDrops {
  bySwitch: ReadonlyMap<number, SwitchDrop>;
  drops: readonly DropPublicView[];
  /** The list and this browser's places in it are known (a shared link waits for this). */
  ready: boolean;
}

const NONE: DropPublicView[] = [];

/**
 * The switch drops, their countdowns ticking on the server's clock (the offset measured at the
 * answer), and this browser's places in them, asked once for the drops that have one: an
 * admitted place unlocks its switch. Until the page runs here it is what the server rendered.
 */
export function useSwitchDrops(): SwitchDrops {
  const request = useApiRequest(
    SWITCH_DROPS_PATH,
    (drops: DropPublicView[]) => drops,
    (signal) => api<DropPublicView[]>(SWITCH_DROPS_PATH, { signal }),
  );
  const drops = request.data ?? NONE;
  // A failed read shows no drop (the cart still refuses a dropped switch, with its sentence).
  const settled = request.state === "loaded" || request.state === "failed";
  const serverTime = drops[0]?.serverTime ?? null;
  // null on the server and at hydration: the server's own time stands, so both render alike.
  const [clock, setClock] = useState<{ offset: number; now: number } | null>(null);
  const counting = drops.some((d) => d.phase === "scheduled" || d.phase === "room");
  useEffect(() => {
    if (serverTime === null) return;
    const offset = clockOffset(serverTime, Date.now());
    setClock({ offset, now: Date.now() });
    if (!counting) return;
    // More often than once a second, so a late timer never makes the clock skip a second.
    const timer = setInterval(() => setClock({ offset, now: Date.now() }), 250);
    return () => clearInterval(timer);
  }, [serverTime, counting]);

  const [places, setPlaces] = useState<ReadonlyMap<string, TicketState | null> | null>(null);
  useEffect(() => {
    if (!settled) return;
    const kept = drops.flatMap((drop) => {
      const place = drop.phase === "room" || drop.phase === "open" ? keptPlace(drop.id) : null;
      return place ? [{ drop, place }] : [];
    });
    if (kept.length === 0) {
      setPlaces(new Map());
      return;
    }
    const controller = new AbortController();
    Promise.all(kept.map(async ({ drop, place }) => {
      try {
        return [drop.id, (await fetchTicket(drop.id, place, controller.signal)).state] as const;
      } catch {
        // Not the shopper's any more, or unreachable: no way in through it from here.
        return [drop.id, null] as const;
      }
    })).then((answers) => {
      if (!controller.signal.aborted) setPlaces(new Map(answers));
    });
    return () => controller.abort();
  }, [drops, settled]);

  const serverNow = serverTime === null ? 0 : Date.parse(serverTime);
  const at = clock ? clock.now + clock.offset : serverNow;
  const second = Math.floor(at / 1000);
  const bySwitch = useMemo(() => {
    const map = new Map<number, SwitchDrop>();
    for (const drop of drops) {
      const toOpening = secondsUntil(drop.opensAt, 0, second * 1000);
      const phase = phaseNow(
        drop.phase,
        secondsUntil(roomOpensAt(drop.opensAt), 0, second * 1000),
        toOpening,
      );
      const place = placeStateOf(places?.get(drop.id) ?? null);
      map.set(drop.target.id, {
        drop,
        phase,
        place,
        locked: dropLocks(phase, place),
        note: dropCardNote(phase, toOpening, place),
      });
    }
    return map;
  }, [drops, places, second]);
  return { bySwitch, drops, ready: settled && places !== null };
}
