import { Link } from "react-router-dom";
import {
  POLICY,
  SHIPPING_INTERNATIONAL_CENTS,
  SHIPPING_US_CENTS,
  SHOP_CONTACT_EMAIL,
  SHOP_NAME,
  TAX_PERCENT,
} from "../../../shared/policy.ts";

function dollars(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`;
}

/** Terms of service: the rules that apply to every order placed in the shop. */
export function TosPage() {
  return (
    <article className="page prose">
      <h1>Terms of service</h1>
      <p className="muted">Last updated {POLICY.termsUpdated}</p>
      <p>
        These terms apply to everyone who visits {SHOP_NAME}{" "}
        or buys from it. By placing an order you agree to them, so please read them before you buy.
        If something is unclear, ask us through the <Link to="/contact">contact page</Link>{" "}
        before you order, not after.
      </p>

      <h2>Changes to these terms</h2>
      <p>
        We may update these terms from time to time. When we make a material change, we will post
        the new version on this page at least {POLICY.termsNoticeDays}{" "}
        days before it takes effect and update the date at the top. Every order is governed by the
        terms that were in effect when it was placed; a later change never applies to an order you
        have already paid for.
      </p>

      <h2>Our products</h2>
      <p>
        We sell 3D-printed keyboard switch testers: themed tester packs, custom testers with
        switches you pick yourself, fidget cubes and cases for switches you already own. Every
        tester is printed on demand after you order it, so small differences in colour, surface
        texture and layer lines are normal and are not defects.
      </p>
      <p>
        The switches and keycaps inside our testers are made by third-party manufacturers. We
        describe them as accurately as we can (type, actuation force, brand), but the feel of a
        switch varies a little from batch to batch, and the product photos are illustrations of the
        finished tester.
      </p>
      <p>
        Our stock is limited. Switches and printed parts are counted individually, and an item shows
        as out of stock as soon as any part it needs runs out. While you are in checkout, the parts
        in your cart are held for you for a short time; if you do not finish paying, they go back
        into stock.
      </p>

      <h2>Orders</h2>
      <p>
        Placing an order is an offer to buy the items in your cart at the prices shown. The order is
        accepted once your payment succeeds and we send you an order confirmation by email with your
        order number. You can follow the order at any time from the tracking link in that email.
      </p>
      <p>
        In rare cases we may have to cancel an accepted order, for example if a part turns out to be
        damaged and cannot be replaced, or if a price was shown in obvious error. If that happens we
        tell you by email and refund the full amount you paid.
      </p>
      <p>
        You can order as a guest or with an account. If you create an account, keep your password to
        yourself: you are responsible for orders placed while signed in to it.
      </p>

      <h2>Prices and payment</h2>
      <p>
        All prices are in US dollars (USD). The price you pay is the one shown in your cart and at
        checkout when you place the order; prices are always calculated by our server from the
        current catalogue. Before you pay, checkout shows the subtotal, any discount, the shipping
        price and an estimated sales tax of{" "}
        {TAX_PERCENT}% of the subtotal after discount. Shipping costs {dollars(SHIPPING_US_CENTS)}
        {" "}
        in the US and {dollars(SHIPPING_INTERNATIONAL_CENTS)} internationally, as described in our
        {" "}
        <Link to="/shipping-policy">shipping policy</Link>.
      </p>
      <p>
        Promo codes, such as those announced in the banner at the top of the site, apply to the
        subtotal before shipping and tax, within the dates, limits and minimums each code states.
        Codes have no cash value and cannot be applied to an order after it has been placed.
      </p>
      <p>
        Payment is made by card through our payment provider. Your card details are entered in the
        provider's secure form and go directly to the provider: we never see or store your full card
        number. Your card is charged when you place the order.
      </p>

      <h2>Business purchases and tax IDs</h2>
      <p>
        If you are buying as a business from the European Union, Brazil or a similar country that
        requires it, you must provide a valid VAT or Tax ID. Tick{" "}
        <strong>I'm purchasing as a business</strong>{" "}
        at checkout and enter the number there so it appears on your order.
      </p>
      <p>
        Customs duties and import taxes charged by the destination country are not part of our
        prices and are set by that country's authorities, not by us.
      </p>

      <h2>Shipping</h2>
      <p>
        Orders are processed within {POLICY.processingDays} and then shipped. Delivery usually takes
        {" "}
        {POLICY.domesticDelivery} in the United States and {POLICY.internationalDelivery}{" "}
        for international orders. A tracking number is usually added to your order within{" "}
        {POLICY.trackingWithin}. These times are estimates, not guarantees: carriers, customs and
        holidays can add delays that are outside our control. Occasionally we announce a later ship
        date for new orders in the banner at the top of every page; that date then applies to your
        order. The full details are in our <Link to="/shipping-policy">shipping policy</Link>.
      </p>
      <p>
        Please check your shipping address carefully. We ship to the address you enter at checkout
        and cannot redirect a parcel once it has left us.
      </p>

      <h2>Cancellations, returns and refunds</h2>
      <p>
        <strong>We do not accept returns.</strong>{" "}
        Because every tester is printed on demand and assembled with the switches of your order, we
        cannot resell a tester once it has been sent.
      </p>
      <p>
        You can cancel an order for a full refund, including shipping and tax, only before it ships.
        Once an order is marked as shipped it can no longer be cancelled. Refunds are sent to the
        card you paid with and take {POLICY.refundDays}{" "}
        to process; your bank may need a little longer to show them on your statement.
      </p>
      <p>
        If your order arrives damaged in transit or is not what you ordered, contact us and we will
        make it right. The details are in our <Link to="/refund-policy">refund policy</Link>.
      </p>

      <h2>Using the site</h2>
      <p>
        Please use the shop only to browse and buy for yourself or your business. Do not try to
        interfere with the site, get around its security, overload it with automated requests or
        place orders in someone else's name. We may cancel orders or close accounts that break these
        rules.
      </p>
      <p>
        The texts, photos, tester designs and the {SHOP_NAME}{" "}
        name on this site belong to us or to their owners and may not be copied for commercial use
        without permission. Switch and keycap brand names belong to their manufacturers.
      </p>

      <h2>Warranty</h2>
      <p>
        We promise that what you receive matches its description on the site at the time of your
        order. Beyond that, and to the extent the law allows, the products and the site are provided
        as they are, without further warranties. Mechanical switches are components; how a switch
        feels to you is a matter of taste and is not a defect.
      </p>

      <h2>Limitation of liability</h2>
      <p>
        To the fullest extent permitted by law, our total liability for any claim connected with an
        order or with the site is limited to the amount you paid for that order. We are not liable
        for indirect or consequential losses, such as lost profits, lost data or the cost of
        substitute goods, or for delays caused by carriers, customs or other events outside our
        reasonable control.
      </p>
      <p>
        Nothing in these terms limits any liability or consumer right that cannot be limited or
        waived under the law that applies to you.
      </p>

      <h2>Governing law</h2>
      <p>
        These terms are governed by the laws of{" "}
        {POLICY.governingLaw}, United States, without regard to its conflict-of-law rules. If any
        part of these terms is found unenforceable, the rest remains in effect.
      </p>

      <h2>Contact</h2>
      <p>
        Questions about these terms or about an order? Write to us through the{" "}
        <Link to="/contact">contact page</Link> or by email at{" "}
        <a href={`mailto:${SHOP_CONTACT_EMAIL}`}>{SHOP_CONTACT_EMAIL}</a>. Please include your order
        number if your question is about an order.
      </p>
    </article>
  );
}
