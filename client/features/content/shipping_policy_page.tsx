import { Link } from "react-router-dom";
import { useStore } from "../../app/store/store.ts";
import { showsNotice } from "../../app/layout/notice_banner.tsx";
import {
  FREE_SHIPPING_THRESHOLD_CENTS,
  POLICY,
  SHIPPING_INTERNATIONAL_CENTS,
  SHIPPING_US_CENTS,
} from "../../../shared/policy.ts";

function dollars(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`;
}

/** Shipping policy: processing and delivery times, prices and tracking. */
export function ShippingPolicyPage() {
  const notice = useStore((s) => s.notice);
  return (
    <article className="page prose">
      <h1>Shipping policy</h1>
      {/* The banner is the one place the current ship date is set, so this page quotes it. */}
      {showsNotice(notice) && (
        <p>
          <strong>Current notice:</strong> {notice.text}{" "}
          When it names a later ship date, new orders wait in the queue until then and the times
          below count from that date.
        </p>
      )}

      <h2>Processing</h2>
      <p>
        Every tester is printed on demand and assembled by hand. Orders are processed within{" "}
        {POLICY.processingDays}{" "}
        after payment, then handed to the postal carrier. Business days are Monday to Friday,
        excluding US public holidays.
      </p>

      <h2>Delivery times</h2>
      <ul>
        <li>
          <strong>United States:</strong> {POLICY.domesticDelivery} after shipping.
        </li>
        <li>
          <strong>International:</strong> {POLICY.internationalDelivery}{" "}
          after shipping, depending on the destination and on customs.
        </li>
      </ul>
      <p>
        These are the carrier's usual times, not guarantees. Weather, holidays and customs checks
        can add a few days.
      </p>

      <h2>Shipping prices</h2>
      <ul>
        <li>
          <strong>United States:</strong> {dollars(SHIPPING_US_CENTS)} per order.
        </li>
        <li>
          <strong>Free US shipping</strong> on orders of {dollars(FREE_SHIPPING_THRESHOLD_CENTS)}
          {" "}
          or more, counted after discounts such as promo codes and before tax.
        </li>
        <li>
          <strong>International:</strong> {dollars(SHIPPING_INTERNATIONAL_CENTS)} per order.
        </li>
      </ul>
      <p>
        The exact shipping price is shown at checkout before you pay. Choose{" "}
        <strong>Checkout (United States)</strong> or <strong>Checkout (International)</strong>{" "}
        in your cart to match the destination of your parcel.
      </p>

      <h2>Tracking</h2>
      <p>
        A tracking number is usually added to your order within{" "}
        {POLICY.trackingWithin}, once the parcel has been prepared. We email it to you, and it also
        appears on your order's tracking page, with a link to the carrier's tracking page.
      </p>

      <h2>International orders</h2>
      <p>
        Customs duties and import taxes charged by your country are not included in our prices and
        are collected by the carrier or by customs. If you are buying as a business from the
        European Union, Brazil or a similar country, tick{" "}
        <strong>I'm purchasing as a business</strong> at checkout and enter your VAT or Tax ID.
      </p>

      <h2>Addresses</h2>
      <p>
        We ship to the address you enter at checkout. Please check it carefully: once a parcel has
        left us we cannot change its destination. If you notice a mistake, contact us straight away,
        and we will fix it if the order has not shipped yet.
      </p>

      <h2>Lost or damaged parcels</h2>
      <p>
        If your tracking has not moved for a long time, or your parcel arrives damaged, write to us
        through the <Link to="/contact">contact page</Link>{" "}
        with your order number and we will help. Cancellations and refunds are covered in our{" "}
        <Link to="/refund-policy">refund policy</Link>.
      </p>
    </article>
  );
}
