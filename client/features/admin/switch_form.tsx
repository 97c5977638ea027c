import { type FormEvent, useState } from "react";
import { toast } from "react-hot-toast";
import { switchCreateSchema, switchUpdateSchema } from "../../../shared/schemas.ts";
import type { AdminSwitchView } from "../../../shared/api_types.ts";
import { createSwitch, updateSwitch } from "./catalog_api.ts";
import {
  changedFields,
  moneyText,
  optionalText,
  parseCount,
  parseMoney,
} from "./catalog_format.ts";
import { saveRecord } from "./save_record.ts";
import { ConflictNotice } from "./conflict_notice.tsx";
import { ImageUpload } from "./image_upload.tsx";
import { CheckField, FormError, InputField, MoneyField } from "./form_fields.tsx";
import { useFields } from "./use_fields.ts";

/** The switch types the catalogue uses; a switch of another type keeps its own as an option. */
const SWITCH_TYPES = [
  "linear",
  "tactile",
  "clicky",
  "silent linear",
  "silent tactile",
  "silent clicky",
];

/** The form's values for a switch (a new one: blank). */
function valuesOf(sw: AdminSwitchView | null) {
  return {
    name: sw?.name ?? "",
    brand: sw?.brand ?? "",
    type: sw?.type ?? "linear",
    force: sw?.force ?? "",
    extraPrice: sw ? moneyText(sw.extraPrice) : "0.00",
    referralLink: sw?.referralLink ?? "",
    stock: sw ? String(sw.stock) : "",
    retired: sw?.retired ?? false,
  };
}

type SwitchValues = ReturnType<typeof valuesOf>;

/** The body the API takes, from what was typed. */
function inputOf(values: SwitchValues, editing: boolean) {
  return {
    name: values.name,
    brand: values.brand,
    type: values.type,
    force: values.force.trim(),
    extraPrice: parseMoney(values.extraPrice),
    referralLink: editing ? values.referralLink.trim() : optionalText(values.referralLink),
    stock: parseCount(values.stock),
    ...(editing ? { retired: values.retired } : {}),
  };
}

/**
 * Adds a switch (no `record`) or edits one: name, brand, type, force, extra price, referral
 * link, stock and, when editing, retired. Checked with the route's own schema before it is sent;
 * an edit sends only the changed fields with the version it was read at, and a 409 offers to
 * reload the switch.
 */
export function SwitchForm(
  { record, onSaved, reload, onImageSaved }: {
    record: AdminSwitchView | null;
    /** The switch after its image changed (the dialog stays open). */
    onImageSaved?: (saved: AdminSwitchView) => void;
    onSaved: (saved: AdminSwitchView) => void;
    /** Loads the switch afresh (after a conflict); null when it is gone. */
    reload: () => Promise<AdminSwitchView | null>;
  },
) {
  const editing = record !== null;
  const [base, setBase] = useState(record);
  const fields = useFields(editing ? `switch-${record.id}` : "switch-new", valuesOf(record));
  const [conflict, setConflict] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const typeId = fields.idOf("type");
  const types = SWITCH_TYPES.includes(fields.values.type)
    ? SWITCH_TYPES
    : [...SWITCH_TYPES, fields.values.type];

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const input = inputOf(fields.values, editing);
    let save: () => Promise<AdminSwitchView>;
    if (base) {
      const changes = changedFields(inputOf(valuesOf(base), true), input);
      if (Object.keys(changes).length === 0) {
        toast("Nothing changed");
        return;
      }
      const body = { ...changes, version: base.version };
      if (!fields.accepts(switchUpdateSchema, body)) return;
      save = () => updateSwitch(base.id, body);
    } else {
      if (!fields.accepts(switchCreateSchema, input)) return;
      save = () => createSwitch(input);
    }
    const saved = await saveRecord({
      request: save,
      showError: fields.showError,
      setBusy,
      setConflict,
      failure: "The switch could not be saved",
      explained: [400, 404],
    });
    if (!saved) return;
    toast.success(
      base ? `${saved.brand} ${saved.name} saved` : `${saved.brand} ${saved.name} added`,
    );
    onSaved(saved);
  }

  async function reloadRecord() {
    const fresh = await reload();
    if (!fresh) {
      toast.error("This switch no longer exists");
      return;
    }
    setBase(fresh);
    fields.reset(valuesOf(fresh));
    setConflict(null);
  }

  return (
    <form className="admin-form" onSubmit={submit} noValidate>
      {conflict && <ConflictNotice message={conflict} what="this switch" onReload={reloadRecord} />}
      {base && (
        <ImageUpload<AdminSwitchView>
          kind="switches"
          id={base.id}
          imageUrl={base.imageUrl}
          label={`${base.brand} ${base.name}`}
          onChange={(saved) => {
            setBase(saved);
            onImageSaved?.(saved);
          }}
        />
      )}
      <div className="admin-form-grid">
        <InputField fields={fields} name="name" label="Name" maxLength={60} />
        <InputField fields={fields} name="brand" label="Brand" maxLength={60} />
        <div className="field">
          <label htmlFor={typeId}>Type</label>
          <select
            id={typeId}
            name="type"
            value={fields.values.type}
            aria-invalid={fields.errors.type ? true : undefined}
            aria-describedby={fields.errors.type ? `${typeId}-error` : undefined}
            onChange={(e) => fields.set("type", e.target.value)}
          >
            {types.map((t) => <option key={t} value={t}>{t}</option>)}
          </select>
          {fields.errors.type && (
            <p id={`${typeId}-error`} className="error-text small" role="alert">
              {fields.errors.type}
            </p>
          )}
        </div>
        <InputField
          fields={fields}
          name="force"
          label="Force"
          hint="In grams, as shoppers read it: 55g"
          maxLength={20}
        />
        <MoneyField
          fields={fields}
          name="extraPrice"
          label="Extra price"
          hint="Added to a tester's price per switch, in dollars; may be 0 or negative"
        />
        <InputField
          fields={fields}
          name="stock"
          label="Stock (on shelf)"
          inputMode="numeric"
          maxLength={8}
          hint={editing ? undefined : "Leave blank for none yet"}
        />
        <InputField
          fields={fields}
          name="referralLink"
          label="Referral link"
          type="url"
          maxLength={500}
          className="admin-form-wide"
          hint="Where shoppers can buy a full set (https://...)"
        />
        {editing && (
          <CheckField
            fields={fields}
            name="retired"
            label="Retired (hidden from the shop and the configurators)"
            className="admin-form-wide"
          />
        )}
      </div>
      <FormError message={fields.errors.form} />
      <div className="row">
        <button type="submit" className="button" aria-disabled={busy}>
          {busy ? "Saving..." : editing ? "Save switch" : "Add switch"}
        </button>
      </div>
    </form>
  );
}
