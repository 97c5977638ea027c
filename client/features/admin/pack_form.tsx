import { type FormEvent, useState } from "react";
import { toast } from "react-hot-toast";
import { packUpdateSchema } from "../../../shared/schemas.ts";
import type { AdminPackView, AdminSwitchView } from "../../../shared/api_types.ts";
import { updatePack } from "./catalog_api.ts";
import { changedFields, moneyText, parseMoney } from "./catalog_format.ts";
import { saveRecord } from "./save_record.ts";
import { ConflictNotice } from "./conflict_notice.tsx";
import { ImageUpload } from "./image_upload.tsx";
import { CheckField, FormError, InputField, MoneyField, TextAreaField } from "./form_fields.tsx";
import { useFields } from "./use_fields.ts";

/** How many switches a pack holds. */
const PACK_SIZE = 10;

/** The form's values for a pack; the ten picks are s0 to s9, each a switch id as text. */
function valuesOf(pack: AdminPackView) {
  return {
    title: pack.title,
    description: pack.description,
    price: moneyText(pack.basePrice),
    onSale: pack.onSale,
    switchIds: pack.switchIds.join(","),
  };
}

type PackValues = ReturnType<typeof valuesOf>;

/** The body the API takes, from what was typed. */
function inputOf(values: PackValues) {
  return {
    title: values.title,
    description: values.description,
    price: parseMoney(values.price),
    onSale: values.onSale,
    switchIds: values.switchIds.split(",").map(Number),
  };
}

/**
 * Edits a themed pack: title, description, price (the with-keycaps variant follows at +$2.00),
 * on sale, and its ten switches, each picked from the switches on sale (a retired one already
 * in the pack stays listed, marked, until it is replaced). Only changed fields are sent, with
 * the version the pack was read at; a 409 offers to reload it.
 */
export function PackForm(
  { record, switches, onSaved, reload, onImageSaved }: {
    record: AdminPackView;
    /** The pack after its image changed (the dialog stays open). */
    onImageSaved?: (saved: AdminPackView) => void;
    switches: readonly AdminSwitchView[];
    onSaved: (saved: AdminPackView) => void;
    reload: () => Promise<AdminPackView | null>;
  },
) {
  const [base, setBase] = useState(record);
  const fields = useFields(`pack-${record.id}`, valuesOf(record));
  const [conflict, setConflict] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const picks = fields.values.switchIds.split(",").map(Number);
  const pickError = fields.errors.switchIds;
  const onSale = switches.filter((s) => !s.retired);

  function pick(index: number, id: number) {
    const next = [...picks];
    next[index] = id;
    fields.set("switchIds", next.join(","));
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const changes = changedFields(inputOf(valuesOf(base)), inputOf(fields.values));
    if (Object.keys(changes).length === 0) {
      toast("Nothing changed");
      return;
    }
    const body = { ...changes, version: base.version };
    if (!fields.accepts(packUpdateSchema, body)) return;
    const saved = await saveRecord({
      request: () => updatePack(base.id, body),
      showError: fields.showError,
      setBusy,
      setConflict,
      failure: "The pack could not be saved",
      explained: [400, 404],
    });
    if (!saved) return;
    toast.success(`${saved.title} saved`);
    onSaved(saved);
  }

  async function reloadRecord() {
    const fresh = await reload();
    if (!fresh) return;
    setBase(fresh);
    fields.reset(valuesOf(fresh));
    setConflict(null);
  }

  /** The options of one pick: the switches on sale, plus a retired one the pack still holds. */
  function optionsFor(id: number) {
    const current = switches.find((s) => s.id === id);
    return current && current.retired ? [current, ...onSale] : onSale;
  }

  return (
    <form className="admin-form" onSubmit={submit} noValidate>
      {conflict && <ConflictNotice message={conflict} what="this pack" onReload={reloadRecord} />}
      <ImageUpload<AdminPackView>
        kind="packs"
        id={base.id}
        imageUrl={base.imageUrl}
        label={base.title}
        onChange={(saved) => {
          setBase(saved);
          onImageSaved?.(saved);
        }}
      />
      <div className="admin-form-grid">
        <InputField
          fields={fields}
          name="title"
          label="Title"
          maxLength={80}
          className="admin-form-wide"
        />
        <div className="admin-form-wide">
          <TextAreaField fields={fields} name="description" label="Description" maxLength={1000} />
        </div>
        <MoneyField
          fields={fields}
          name="price"
          label="Price"
          hint="Without keycaps, in dollars; with transparent keycaps it is $2.00 more"
        />
        <CheckField fields={fields} name="onSale" label="On sale" />
      </div>
      <fieldset
        className="admin-pack-switches"
        aria-describedby={pickError ? `${fields.idOf("switchIds")}-error` : undefined}
      >
        <legend>Switches (exactly {PACK_SIZE}, from the switches on sale)</legend>
        {/* The first pick carries the field's id, so a failed check focuses it. */}
        <ol>
          {picks.map((id, i) => {
            const selectId = i === 0 ? fields.idOf("switchIds") : `pack-${base.id}-switch-${i}`;
            const duplicate = picks.indexOf(id) !== i;
            return (
              <li key={i}>
                <label htmlFor={selectId} className="visually-hidden">Switch {i + 1}</label>
                <select
                  id={selectId}
                  value={String(id)}
                  aria-invalid={duplicate || pickError ? true : undefined}
                  onChange={(e) => pick(i, Number(e.target.value))}
                >
                  {optionsFor(id).map((s) => (
                    <option key={s.id} value={String(s.id)}>
                      {s.brand} {s.name}
                      {s.retired ? " (retired)" : ""}
                    </option>
                  ))}
                </select>
                {duplicate && <span className="warn-text small">Chosen twice</span>}
              </li>
            );
          })}
        </ol>
        {pickError && (
          <p id={`${fields.idOf("switchIds")}-error`} className="error-text small" role="alert">
            {pickError}
          </p>
        )}
      </fieldset>
      <FormError message={fields.errors.form} />
      <div className="row">
        <button type="submit" className="button" aria-disabled={busy}>
          {busy ? "Saving..." : "Save pack"}
        </button>
      </div>
    </form>
  );
}
