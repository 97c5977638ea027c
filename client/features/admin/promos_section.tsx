import { useState } from "react";
import { formatDollars } from "../../app/money.ts";
import { SectionStatus, useSectionData } from "./use_section.tsx";
import type { AdminPromoView } from "../../../shared/api_types.ts";
import { fetchPromos } from "./catalog_api.ts";
import { Dialog } from "./dialog.tsx";
import { PromoForm } from "./promo_form.tsx";

/** A date and time in the owner's locale, or the given word when there is none. */
function when(iso: string | null, none: string): string {
  return iso ? new Date(iso).toLocaleString() : none;
}

/** What a promo code takes off: '16% off' or '$5.00 off'. */
export function discountText(promo: Pick<AdminPromoView, "percentOff" | "amountOff">): string {
  if (promo.amountOff) return `${formatDollars(promo.amountOff)} off`;
  return `${promo.percentOff ?? 0}% off`;
}

/**
 * Promo codes: each with its discount, dates, limits and uses so far (a use is a paid order);
 * New promo code and Edit open the form in a dialog.
 */
export function PromosSection() {
  const section = useSectionData(fetchPromos, "The promo codes could not be loaded");
  const { data: promos, setData: setPromos, load } = section;
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<string | null>(null);

  if (!promos) {
    return <SectionStatus section={section} loading="Loading promo codes..." />;
  }

  function replace(saved: AdminPromoView) {
    setPromos((list) =>
      [...(list ?? []).filter((p) => p.code !== saved.code), saved]
        .sort((a, b) => a.code.localeCompare(b.code))
    );
  }

  const edited = promos.find((p) => p.code === editing) ?? null;
  return (
    <section className="admin-catalog-section" aria-labelledby="catalog-promos-heading">
      <div className="admin-section-head">
        <h2 id="catalog-promos-heading">Promo codes</h2>
        <button type="button" className="button" onClick={() => setAdding(true)}>
          New promo code
        </button>
      </div>
      {promos.length === 0
        ? <p className="muted">No promo codes yet.</p>
        : (
          <div className="admin-table-wrap">
            <table className="admin-table admin-catalog-table">
              <caption className="visually-hidden">Promo codes and their uses</caption>
              <thead>
                <tr>
                  <th scope="col">Code</th>
                  <th scope="col">Discount</th>
                  <th scope="col">Runs</th>
                  <th scope="col">Uses</th>
                  <th scope="col">Limits</th>
                  <th scope="col">Status</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {promos.map((promo) => (
                  <tr key={promo.code} data-promo={promo.code}>
                    <th scope="row" className="admin-order-number">{promo.code}</th>
                    <td>{discountText(promo)}</td>
                    <td className="small">
                      <span className="admin-block">From {when(promo.startsAt, "the start")}</span>
                      <span className="admin-block">Until {when(promo.endsAt, "no end date")}</span>
                    </td>
                    <td data-testid="promo-uses">
                      {promo.uses}
                      {promo.maxUses !== null ? ` of ${promo.maxUses}` : ""}
                      {promo.held > 0 && (
                        <span className="muted small admin-block">
                          {promo.held} held by unpaid checkouts
                        </span>
                      )}
                    </td>
                    <td className="small">
                      <span className="admin-block">
                        {promo.maxUsesPerEmail !== null
                          ? `${promo.maxUsesPerEmail} per email`
                          : "Any number per email"}
                      </span>
                      <span className="admin-block">
                        {promo.minSubtotal
                          ? `Subtotal from ${formatDollars(promo.minSubtotal)}`
                          : "Any subtotal"}
                      </span>
                    </td>
                    <td>
                      <span
                        className={`admin-status ${
                          promo.active ? "status-on-sale" : "status-retired"
                        }`}
                      >
                        {promo.active ? "Active" : "Inactive"}
                      </span>
                    </td>
                    <td>
                      <button
                        type="button"
                        className="button secondary small-button"
                        aria-label={`Edit promo code ${promo.code}`}
                        onClick={() => setEditing(promo.code)}
                      >
                        Edit
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      {adding && (
        <Dialog title="New promo code" onClose={() => setAdding(false)} wide>
          <PromoForm
            record={null}
            reload={() => Promise.resolve(null)}
            onSaved={(saved) => {
              replace(saved);
              setAdding(false);
            }}
          />
        </Dialog>
      )}
      {edited && (
        <Dialog
          title={`Edit promo code ${edited.code}`}
          onClose={() => setEditing(null)}
          wide
        >
          <PromoForm
            key={edited.code}
            record={edited}
            reload={async () => (await load())?.find((p) => p.code === edited.code) ?? null}
            onSaved={(saved) => {
              replace(saved);
              setEditing(null);
            }}
          />
        </Dialog>
      )}
    </section>
  );
}
