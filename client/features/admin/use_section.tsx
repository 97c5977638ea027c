import {
  type Dispatch,
  type SetStateAction,
  useCallback,
  useEffect,
  useRef,
  useState,
} from "react";
import { reportAdminError } from "./admin_api.ts";

/** A dashboard section's data, loaded when the section opens and again on demand. */
export interface SectionData<T> {
  /** null until the first load succeeds. */
  data: T | null;
  /** Replaces what is shown after an edit answers the new record. */
  setData: Dispatch<SetStateAction<T | null>>;
  failed: boolean;
  /** The sentence that says the load failed, for the toast and the placeholder. */
  failure: string;
  /**
   * Loads again (Try again, Refresh, a reload after a 409); answers the fresh data, or null when
   * it failed or a later load was asked for meanwhile.
   */
  load(): Promise<T | null>;
}

/** Loads a section's data with `fetch` (a stable function) when the section mounts. */
export function useSectionData<T>(fetch: () => Promise<T>, failure: string): SectionData<T> {
  const [data, setData] = useState<T | null>(null);
  const [failed, setFailed] = useState(false);
  // Answers can arrive out of order (a slow filtered read, then Refresh or another choice): only
  // the last load asked for may set what is shown, or an older choice's answer would replace it.
  const latest = useRef(0);

  const load = useCallback(async (): Promise<T | null> => {
    const turn = ++latest.current;
    try {
      const fresh = await fetch();
      if (turn !== latest.current) return null;
      setData(fresh);
      setFailed(false);
      return fresh;
    } catch (err) {
      if (turn !== latest.current) return null;
      setFailed(true);
      reportAdminError(err, failure);
      return null;
    }
  }, [fetch, failure]);

  useEffect(() => {
    load();
    // A closed section (another tab opened, or logging out) shows nothing of a read under way.
    return () => {
      latest.current++;
    };
  }, [load]);

  return { data, setData, failed, failure, load };
}

/** What a section shows before its data is there: loading, or the failure with Try again. */
export function SectionStatus(
  { section, loading }: {
    section: Pick<SectionData<unknown>, "failed" | "failure" | "load">;
    loading: string;
  },
) {
  return section.failed
    ? (
      <div className="admin-empty">
        <p className="error-text">{section.failure}.</p>
        <button type="button" className="button" onClick={section.load}>Try again</button>
      </div>
    )
    : <p className="loading" role="status">{loading}</p>;
}
