import { toast } from "react-hot-toast";
import { adminErrorMessage, isSessionRefusal } from "./admin_api.ts";
import { isConflict, issueField } from "./catalog_api.ts";

/** What a Catalogue form hands `saveRecord`. */
export interface SaveOptions<T> {
  request: () => Promise<T>;
  /** Shows a refusal beside its field (a form's `fields.showError`). */
  showError: (message: string, field?: string) => void;
  setBusy: (busy: boolean) => void;
  /** Shows a stale-version 409 with its reload offer; without it a 409 is an ordinary refusal. */
  setConflict?: (message: string | null) => void;
  /** The field an ordinary 409 belongs to (a promo code that exists already). */
  conflictField?: string;
  /** Said when the refusal has no sentence of its own. */
  failure: string;
  /** Statuses whose own sentence is shown (4xx the route answers with one). */
  explained: number[];
}

/**
 * Runs one Catalogue edit: busy while it runs; a stale version's 409 becomes the conflict notice,
 * any other refusal shows beside its field and as a toast. Answers the saved record, or null.
 */
export async function saveRecord<T>(options: SaveOptions<T>): Promise<T | null> {
  options.setBusy(true);
  try {
    const saved = await options.request();
    options.setConflict?.(null);
    return saved;
  } catch (err) {
    // A session found gone is told once, by adminApi, and the form closes with the dashboard.
    if (isSessionRefusal(err)) return null;
    if (isConflict(err) && options.setConflict) {
      options.setConflict(err.message);
    } else {
      const message = adminErrorMessage(err, options.failure, options.explained);
      const field = issueField(err) ?? (isConflict(err) ? options.conflictField : undefined);
      options.showError(message, field);
      toast.error(message);
    }
    return null;
  } finally {
    options.setBusy(false);
  }
}
