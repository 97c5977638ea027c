import { type FormEvent, useEffect, useState } from "react";
import { toast } from "react-hot-toast";
import {
  DROP_MAX_HOLD_MINUTES,
  DROP_MIN_HOLD_MINUTES,
  DROP_TARGET_KINDS,
  dropScheduleSchema,
  type DropTargetKind,
} from "../../../shared/drops.ts";
import { adminErrorMessage, reportAdminError } from "./admin_api.ts";
import {
  fetchCatalogItems,
  fetchCatalogPacks,
  fetchCatalogSwitches,
  issueField,
} from "./catalog_api.ts";
import { isoToLocalInput, localInputToIso, utcClock } from "./drop_format.ts";
import { scheduleDrop } from "./drops_api.ts";
import { CheckField, FormError, InputField } from "./form_fields.tsx";
import { useFields } from "./use_fields.ts";

/** What can be dropped, by name, per kind: what is on sale now. */
type Targets = Record<DropTargetKind, { id: number; name: string }[]>;

const KIND_NAMES: Record<DropTargetKind, string> = {
  switch: "Switch (in any tester)",
  pack: "Themed pack",
  item: "Item",
};

async function loadTargets(): Promise<Targets> {
  const [switches, packs, items] = await Promise.all([
    fetchCatalogSwitches(),
    fetchCatalogPacks(),
    fetchCatalogItems(),
  ]);
  const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
  return {
    switch: switches.filter((s) => !s.retired).map((s) => ({
      id: s.id,
      name: `${s.brand} ${s.name}`,
    }))
      .sort(byName),
    pack: packs.filter((p) => p.onSale).map((p) => ({ id: p.id, name: p.title })).sort(byName),
    item: items.filter((i) => i.onSale).map((i) => ({ id: i.id, name: i.name })).sort(byName),
  };
}

/** A whole number typed as text, or the text itself (the schema then names what is wrong). */
function numberOf(text: string): number | string {
  return /^\s*\d+\s*$/.test(text) ? Number(text) : text;
}

/**
 * Schedules a drop: what (kind, then the target by name), how many, when (typed in the owner's
 * time zone, shown with the UTC time the shop keeps), the per-person limit, the hold and
 * "signed-in shoppers only". Checked with the route's own schema before it is sent.
 */
export function DropForm({ onScheduled }: { onScheduled: (id: string) => void }) {
  const [targets, setTargets] = useState<Targets | null>(null);
  const [busy, setBusy] = useState(false);
  const fields = useFields("drop-new", {
    kind: "pack",
    target: "",
    units: "",
    opensAt: isoToLocalInput(new Date(Date.now() + 24 * 3_600_000).toISOString()).slice(0, 14) +
      "00",
    perPersonLimit: "2",
    holdMinutes: "10",
    signedInOnly: false,
  });
  const { values } = fields;
  useEffect(() => {
    // A closed form (another tab opened, or logging out) says nothing of a read under way.
    let closed = false;
    loadTargets().then((loaded) => {
      if (!closed) setTargets(loaded);
    }, (err) => {
      if (closed) return;
      reportAdminError(err, "The catalogue could not be loaded");
    });
    return () => {
      closed = true;
    };
  }, []);
  const choices = targets?.[values.kind as DropTargetKind] ?? [];
  const opensAtIso = localInputToIso(values.opensAt);
  const kindId = fields.idOf("kind");
  const targetId = fields.idOf("target");

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const body = {
      target: { kind: values.kind, id: Number(values.target) || 0 },
      units: numberOf(values.units),
      opensAt: opensAtIso ?? values.opensAt,
      perPersonLimit: numberOf(values.perPersonLimit),
      holdMinutes: numberOf(values.holdMinutes),
      ...(values.signedInOnly ? { signedInOnly: true } : {}),
    };
    if (!values.target) {
      fields.showError("Choose what the drop sells", "target");
      return;
    }
    if (!fields.accepts(dropScheduleSchema, body)) return;
    setBusy(true);
    try {
      const { id } = await scheduleDrop(body);
      toast.success("Drop scheduled");
      onScheduled(id);
    } catch (err) {
      const field = issueField(err);
      fields.showError(
        adminErrorMessage(err, "The drop could not be scheduled", [400, 404, 409]),
        field === "target" ? "target" : field,
      );
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="admin-form" onSubmit={submit} noValidate aria-label="Schedule a drop">
      <div className="admin-form-grid">
        <div className="field">
          <label htmlFor={kindId}>What kind</label>
          <select
            id={kindId}
            value={values.kind}
            onChange={(e) => {
              fields.set("kind", e.target.value);
              fields.set("target", "");
            }}
          >
            {DROP_TARGET_KINDS.map((k) => <option key={k} value={k}>{KIND_NAMES[k]}</option>)}
          </select>
        </div>
        <div className="field">
          <label htmlFor={targetId}>What it sells</label>
          <select
            id={targetId}
            value={values.target}
            aria-invalid={fields.errors.target ? true : undefined}
            aria-describedby={fields.errors.target ? `${targetId}-error` : undefined}
            onChange={(e) => fields.set("target", e.target.value)}
          >
            <option value="">{targets ? "Choose..." : "Loading the catalogue..."}</option>
            {choices.map((c) => <option key={c.id} value={String(c.id)}>{c.name}</option>)}
          </select>
          {fields.errors.target && (
            <p id={`${targetId}-error`} className="error-text small" role="alert">
              {fields.errors.target}
            </p>
          )}
        </div>
        <InputField fields={fields} name="units" label="Units" inputMode="numeric" maxLength={6} />
        <InputField
          fields={fields}
          name="opensAt"
          label="Opens at (your time)"
          type="datetime-local"
          hint={opensAtIso ? `That is ${utcClock(opensAtIso)}` : "A date and a time"}
        />
        <InputField
          fields={fields}
          name="perPersonLimit"
          label="Units per person"
          inputMode="numeric"
          maxLength={3}
          hint="A person: one account, mailbox, delivery address and network"
        />
        <InputField
          fields={fields}
          name="holdMinutes"
          label="Minutes to check out"
          inputMode="numeric"
          maxLength={2}
          hint={`Once let in, ${DROP_MIN_HOLD_MINUTES} to ${DROP_MAX_HOLD_MINUTES} minutes`}
        />
        <CheckField
          fields={fields}
          name="signedInOnly"
          label="Signed-in shoppers only"
          className="admin-form-wide"
        />
      </div>
      <FormError message={fields.errors.form} />
      <div className="row">
        <button type="submit" className="button" aria-disabled={busy}>
          {busy ? "Scheduling..." : "Schedule drop"}
        </button>
      </div>
    </form>
  );
}
