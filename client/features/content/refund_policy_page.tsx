import { Link } from "react-router-dom";
import { POLICY, SHOP_CONTACT_EMAIL } from "../../../shared/policy.ts";

/** Refund policy: no returns, and a full refund for orders cancelled before they ship. */
export function RefundPolicyPage() {
  return (
    <article className="page prose">
      <h1>Refund policy</h1>
      <p>
        In short:{" "}
        <strong>we do not accept returns</strong>, but you can cancel any order for a full refund
        until it ships. Refunds take {POLICY.refundDays}.
      </p>

      <h2>No returns</h2>
      <p>
        Every switch tester is printed on demand and assembled by hand with the switches of your
        order, often a combination you chose yourself. A tester that has been sent cannot be resold,
        so we do not accept returns or exchanges, and we cannot refund an order because a switch
        does not feel the way you hoped. If you are unsure which switches to pick, ask us before you
        order and we will gladly help.
      </p>

      <h2>Cancelling before shipment</h2>
      <p>
        You can cancel your order for a full refund, including shipping and tax, at any time before
        it ships. Because orders are usually processed within{" "}
        {POLICY.processingDays}, please write to us as soon as you can. Once an order is marked as
        shipped it can no longer be cancelled.
      </p>

      <h2>How long a refund takes</h2>
      <p>
        Refunds go back to the card you paid with and take {POLICY.refundDays}{" "}
        to process once the cancellation is confirmed. Depending on your bank, it can take a few
        more days before the refund shows on your statement.
      </p>

      <h2>How to ask for a cancellation</h2>
      <ol>
        <li>
          Find your order number. It is in your order confirmation email and on your order's
          tracking page.
        </li>
        <li>
          Send us a message through the <Link to="/contact">contact page</Link>, or email{" "}
          <a href={`mailto:${SHOP_CONTACT_EMAIL}`}>{SHOP_CONTACT_EMAIL}</a>, with the order number
          and the email address you used at checkout. Do not tick "anonymous": we need your email
          address to reply.
        </li>
        <li>
          We confirm the cancellation by email and start the refund. If the order had already
          shipped when your message arrived, we tell you that too.
        </li>
      </ol>

      <h2>Damaged in transit or wrong items</h2>
      <p>
        If your tester arrives broken, or something in the parcel is not what you ordered, we will
        make it right. Contact us through the <Link to="/contact">contact page</Link>{" "}
        with your order number, a short description and, if you can, a photo of the damage and of
        the packaging. Please keep the parcel until we have replied.
      </p>

      <h2>Orders we cancel</h2>
      <p>
        If we ever have to cancel an order ourselves, for example because a part ran out and cannot
        be replaced, we tell you by email and refund the full amount you paid. You do not need to
        ask.
      </p>

      <p className="muted">
        This policy is part of our{" "}
        <Link to="/tos">terms of service</Link>. Shipping times are described in our{" "}
        <Link to="/shipping-policy">shipping policy</Link>.
      </p>
    </article>
  );
}
