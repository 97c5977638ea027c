import { type FormEvent, useState } from "react";
import { toast } from "react-hot-toast";
import { itemUpdateSchema } from "../../../shared/schemas.ts";
import { SectionStatus, useSectionData } from "./use_section.tsx";
import type { AdminItemView } from "../../../shared/api_types.ts";
import { fetchCatalogItems, updateItem } from "./catalog_api.ts";
import { changedFields, moneyText, parseMoney } from "./catalog_format.ts";
import { saveRecord } from "./save_record.ts";
import { ConflictNotice } from "./conflict_notice.tsx";
import { ImageUpload } from "./image_upload.tsx";
import { CheckField, FormError, InputField, MoneyField } from "./form_fields.tsx";
import { useFields } from "./use_fields.ts";

/**
 * Items: the Layout Tester and the Fidget Cube Case, each edited in place (name, price, on
 * sale).
 */
export function ItemsSection() {
  const section = useSectionData(fetchCatalogItems, "The items could not be loaded");
  const { data: items, load } = section;

  if (!items) {
    return <SectionStatus section={section} loading="Loading items..." />;
  }

  return (
    <section className="admin-catalog-section" aria-labelledby="catalog-items-heading">
      <h2 id="catalog-items-heading">Items</h2>
      <div className="admin-item-cards">
        {items.map((item) => (
          <ItemForm
            key={item.id}
            record={item}
            reload={async () => (await load())?.find((i) => i.id === item.id) ?? null}
          />
        ))}
      </div>
    </section>
  );
}

function valuesOf(item: AdminItemView) {
  return { name: item.name, price: moneyText(item.price), onSale: item.onSale };
}

function inputOf(values: ReturnType<typeof valuesOf>) {
  return { name: values.name, price: parseMoney(values.price), onSale: values.onSale };
}

/** One item's form; only changed fields are sent, with the version it was read at. */
function ItemForm(
  { record, reload }: { record: AdminItemView; reload: () => Promise<AdminItemView | null> },
) {
  const [base, setBase] = useState(record);
  const fields = useFields(`item-${record.id}`, valuesOf(record));
  const [conflict, setConflict] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const headingId = `item-${record.id}-heading`;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const changes = changedFields(inputOf(valuesOf(base)), inputOf(fields.values));
    if (Object.keys(changes).length === 0) {
      toast("Nothing changed");
      return;
    }
    const body = { ...changes, version: base.version };
    if (!fields.accepts(itemUpdateSchema, body)) return;
    const saved = await saveRecord({
      request: () => updateItem(base.id, body),
      showError: fields.showError,
      setBusy,
      setConflict,
      failure: "The item could not be saved",
      explained: [400, 404],
    });
    if (!saved) return;
    setBase(saved);
    fields.reset(valuesOf(saved));
    toast.success(`${saved.name} saved`);
  }

  async function reloadRecord() {
    const fresh = await reload();
    if (!fresh) return;
    setBase(fresh);
    fields.reset(valuesOf(fresh));
    setConflict(null);
  }

  return (
    <form
      className="card admin-form admin-item-card"
      onSubmit={submit}
      noValidate
      aria-labelledby={headingId}
      data-item-id={record.id}
    >
      <h3 id={headingId}>{base.name}</h3>
      <ImageUpload<AdminItemView>
        kind="items"
        id={base.id}
        imageUrl={base.imageUrl}
        label={base.name}
        onChange={setBase}
      />
      {conflict && <ConflictNotice message={conflict} what="this item" onReload={reloadRecord} />}
      <InputField fields={fields} name="name" label="Name" maxLength={80} />
      <MoneyField fields={fields} name="price" label="Price" />
      <CheckField fields={fields} name="onSale" label="On sale" />
      <FormError message={fields.errors.form} />
      <button type="submit" className="button" aria-disabled={busy}>
        {busy ? "Saving..." : "Save item"}
      </button>
    </form>
  );
}
