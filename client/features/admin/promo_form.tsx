import { type FormEvent, useState } from "react";
import { toast } from "react-hot-toast";
import { promoCreateSchema, promoUpdateSchema } from "../../../shared/schemas.ts";
import type { AdminPromoView } from "../../../shared/api_types.ts";
import { createPromo, updatePromo } from "./catalog_api.ts";
import {
  changedFields,
  isoFromLocal,
  localDateTimeText,
  moneyText,
  parseCount,
  parseMoney,
} from "./catalog_format.ts";
import { saveRecord } from "./save_record.ts";
import { ConflictNotice } from "./conflict_notice.tsx";
import { CheckField, FormError, InputField, MoneyField } from "./form_fields.tsx";
import { useFields } from "./use_fields.ts";

function valuesOf(promo: AdminPromoView | null) {
  return {
    code: promo?.code ?? "",
    kind: promo?.amountOff ? "amount" : "percent",
    percentOff: promo?.percentOff != null ? String(promo.percentOff) : "",
    amountOff: promo?.amountOff != null ? moneyText(promo.amountOff) : "",
    startsAt: localDateTimeText(promo?.startsAt),
    endsAt: localDateTimeText(promo?.endsAt),
    maxUses: promo?.maxUses != null ? String(promo.maxUses) : "",
    maxUsesPerEmail: promo?.maxUsesPerEmail != null ? String(promo.maxUsesPerEmail) : "",
    minSubtotal: promo?.minSubtotal != null ? moneyText(promo.minSubtotal) : "",
    active: promo?.active ?? true,
  };
}

type PromoValues = ReturnType<typeof valuesOf>;

/**
 * The body the API takes. A blank limit is no limit: left out of a creation, null in an edit
 * (so an edit can lift a limit); the discount is a percent or an amount, never both.
 */
function termsOf(values: PromoValues, editing: boolean) {
  const none = editing ? null : undefined;
  const percent = values.kind === "percent";
  return {
    percentOff: percent ? parseCount(values.percentOff) : none,
    amountOff: percent ? none : parseMoney(values.amountOff),
    startsAt: isoFromLocal(values.startsAt) ?? none,
    endsAt: isoFromLocal(values.endsAt) ?? none,
    maxUses: parseCount(values.maxUses) ?? none,
    maxUsesPerEmail: parseCount(values.maxUsesPerEmail) ?? none,
    minSubtotal: parseMoney(values.minSubtotal) ?? none,
    active: values.active,
  };
}

/**
 * Creates a promo code (no `record`) or edits one: percent or amount off, the dates it runs
 * between (the owner's local time), the most uses in all and per email, the least subtotal, and
 * whether it is active. The code itself is fixed once created.
 */
export function PromoForm(
  { record, onSaved, reload }: {
    record: AdminPromoView | null;
    onSaved: (saved: AdminPromoView) => void;
    reload: () => Promise<AdminPromoView | null>;
  },
) {
  const editing = record !== null;
  const [base, setBase] = useState(record);
  const prefix = editing ? `promo-${record.code}` : "promo-new";
  const fields = useFields(prefix, valuesOf(record));
  const [conflict, setConflict] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const percent = fields.values.kind === "percent";

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const terms = termsOf(fields.values, editing);
    let save: () => Promise<AdminPromoView>;
    if (base) {
      const changes = changedFields(termsOf(valuesOf(base), true), terms);
      if (Object.keys(changes).length === 0) {
        toast("Nothing changed");
        return;
      }
      const body = { ...changes, version: base.version };
      if (!fields.accepts(promoUpdateSchema, body)) return;
      save = () => updatePromo(base.code, body);
    } else {
      const body = { code: fields.values.code, ...terms };
      if (!fields.accepts(promoCreateSchema, body)) return;
      save = () => createPromo(body);
    }
    const saved = await saveRecord({
      request: save,
      showError: fields.showError,
      setBusy,
      // A stale edit offers a reload; a new code that exists already is an error on its field.
      setConflict: base ? setConflict : undefined,
      conflictField: "code",
      failure: "The promo code could not be saved",
      explained: [400, 404, 409],
    });
    if (!saved) return;
    toast.success(base ? `Promo code ${saved.code} saved` : `Promo code ${saved.code} created`);
    onSaved(saved);
  }

  async function reloadRecord() {
    const fresh = await reload();
    if (!fresh) return;
    setBase(fresh);
    fields.reset(valuesOf(fresh));
    setConflict(null);
  }

  const kindName = `${prefix}-kind`;
  return (
    <form className="admin-form" onSubmit={submit} noValidate>
      {conflict && (
        <ConflictNotice message={conflict} what="this promo code" onReload={reloadRecord} />
      )}
      <div className="admin-form-grid">
        {!editing && (
          <InputField
            fields={fields}
            name="code"
            label="Code"
            maxLength={40}
            hint="Letters and digits; shoppers may type it in any case"
          />
        )}
        <fieldset className="admin-radio-group admin-form-wide">
          <legend>Discount</legend>
          <label className="checkbox">
            <input
              type="radio"
              name={kindName}
              value="percent"
              checked={percent}
              onChange={() => fields.set("kind", "percent")}
            />
            Percent off the subtotal
          </label>
          <label className="checkbox">
            <input
              type="radio"
              name={kindName}
              value="amount"
              checked={!percent}
              onChange={() => fields.set("kind", "amount")}
            />
            Amount off the subtotal
          </label>
        </fieldset>
        {percent
          ? (
            <InputField
              fields={fields}
              name="percentOff"
              label="Percent off"
              inputMode="numeric"
              maxLength={3}
              hint="1 to 100"
            />
          )
          : <MoneyField fields={fields} name="amountOff" label="Amount off" />}
        <MoneyField
          fields={fields}
          name="minSubtotal"
          label="Minimum subtotal"
          hint="In dollars; blank for none"
        />
        <InputField
          fields={fields}
          name="startsAt"
          label="Starts"
          type="datetime-local"
          hint="Your local time; blank: at once"
        />
        <InputField
          fields={fields}
          name="endsAt"
          label="Ends"
          type="datetime-local"
          hint="Your local time; blank: never"
        />
        <InputField
          fields={fields}
          name="maxUses"
          label="Maximum uses"
          inputMode="numeric"
          maxLength={8}
          hint="Paid orders in all; blank for no limit"
        />
        <InputField
          fields={fields}
          name="maxUsesPerEmail"
          label="Maximum uses per email"
          inputMode="numeric"
          maxLength={8}
          hint="Blank for no limit"
        />
        <CheckField fields={fields} name="active" label="Active" />
      </div>
      <FormError message={fields.errors.form} />
      <div className="row">
        <button type="submit" className="button" aria-disabled={busy}>
          {busy ? "Saving..." : editing ? "Save promo code" : "Create promo code"}
        </button>
      </div>
    </form>
  );
}
