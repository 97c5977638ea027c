import { Link } from "react-router-dom";
import { POLICY, SHIPPING_INTERNATIONAL_CENTS } from "../../../shared/policy.ts";

function dollars(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`;
}

/** Frequently asked questions, as an accordion of native disclosure widgets. */
export function FaqPage() {
  return (
    <article className="page prose">
      <h1>Frequently asked questions</h1>
      <p className="muted">
        Can't find your answer here? <Link to="/contact">Send us a message</Link>.
      </p>
      <div className="accordion">
        <details>
          <summary>What is a switch tester?</summary>
          <div>
            <p>
              A switch tester is a small 3D-printed base holding a row of mechanical keyboard
              switches, so you can press each one and feel the difference between linear, tactile,
              silent and clicky switches before you buy a whole keyboard's worth. Our themed packs
              hold ten switches each, with optional transparent keycaps.
            </p>
          </div>
        </details>
        <details>
          <summary>Can I choose my own switches?</summary>
          <div>
            <p>
              Yes. With the <Link to="/testers/custom">custom switch tester</Link>{" "}
              you pick 10, 15 or 20 switches from our catalogue, filtered by brand, type and
              actuation force. You can also build a{" "}
              <Link to="/testers/fidget-cube">fidget cube</Link>{" "}
              with six switches of your choice, or get a Layout Tester or Fidget Cube Case from the
              {" "}
              <Link to="/shop">shop</Link> for switches you already own.
            </p>
          </div>
        </details>
        <details>
          <summary>How long does shipping take?</summary>
          <div>
            <p>
              Orders are processed within {POLICY.processingDays}. Delivery then takes{" "}
              {POLICY.domesticDelivery} in the United States and {POLICY.internationalDelivery}{" "}
              internationally, and a tracking number is usually added within{" "}
              {POLICY.trackingWithin}. Check the banner at the top of the page for the current ship
              date. Prices and details are in our{" "}
              <Link to="/shipping-policy">shipping policy</Link>.
            </p>
          </div>
        </details>
        <details>
          <summary>Can I return my order?</summary>
          <div>
            <p>
              No, we do not accept returns, because every tester is printed on demand for your
              order. You can cancel for a full refund at any time before your order ships; refunds
              take {POLICY.refundDays}. See our <Link to="/refund-policy">refund policy</Link>{" "}
              for how to ask, or <Link to="/contact">contact us</Link>{" "}
              if your order arrived damaged.
            </p>
          </div>
        </details>
        <details>
          <summary>Do you ship internationally?</summary>
          <div>
            <p>
              Yes. Choose <strong>Checkout (International)</strong>{" "}
              in your cart. International shipping costs {dollars(SHIPPING_INTERNATIONAL_CENTS)}
              {" "}
              per order and usually takes{" "}
              {POLICY.internationalDelivery}. Business buyers from the EU, Brazil and similar
              countries need to tick <strong>I'm purchasing as a business</strong>{" "}
              and enter a VAT or Tax ID. More in our{" "}
              <Link to="/shipping-policy">shipping policy</Link>.
            </p>
          </div>
        </details>
        <details>
          <summary>Do you have a discount?</summary>
          <div>
            <p>
              When we run a promotion, the red banner at the top of every page gives its code. Enter
              it in the promo code field at checkout: the discount comes off your order's subtotal,
              and the checkout tells you if a code has ended or has conditions, such as a minimum
              subtotal.
            </p>
          </div>
        </details>
      </div>
    </article>
  );
}
