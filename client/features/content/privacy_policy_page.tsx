import { Link } from "react-router-dom";
import { SHOP_CONTACT_EMAIL, SHOP_NAME } from "../../../shared/policy.ts";

/** Privacy policy: what the shop stores about its customers, why and for how long. */
export function PrivacyPolicyPage() {
  return (
    <article className="page prose">
      <h1>Privacy policy</h1>
      <p>
        {SHOP_NAME}{" "}
        collects only what it needs to sell you a switch tester, send it to you and answer your
        questions. This page explains what that is, why we need it, how long we keep it and who else
        sees it.
      </p>

      <h2>What we store</h2>
      <h3>When you place an order</h3>
      <ul>
        <li>your email address, so we can send the order confirmation and shipping updates;</li>
        <li>your name and shipping address, so we can ship the parcel;</li>
        <li>
          the contents of your order (items, chosen switches, keycaps and colours), its prices, its
          status and its tracking number.
        </li>
      </ul>
      <h3>When you create an account</h3>
      <ul>
        <li>your email address;</li>
        <li>
          a hashed version of your password. We never store the password itself, and nobody at the
          shop can read it.
        </li>
      </ul>
      <h3>When you write to us</h3>
      <ul>
        <li>
          your message and its subject, and your name and email address unless you send the message
          anonymously.
        </li>
      </ul>
      <h3>In your browser</h3>
      <ul>
        <li>
          the id of your cart, in your browser's local storage, so your cart is still there when you
          come back;
        </li>
        <li>your choice of light or dark theme, in local storage;</li>
        <li>if you sign in, your user id and a sign-in token, in local storage;</li>
        <li>
          once you have signed in, a cookie that tells the shop this browser signed in before, so
          that nobody guessing at your password from elsewhere can slow down your own sign-ins. It
          holds a random number, nothing about you, and is forgotten after 90 days without a
          sign-in.
        </li>
      </ul>
      <p>
        The shop does not use advertising cookies. You can clear these values at any time from your
        browser's settings; your cart and theme choice are then forgotten and you are signed out.
      </p>

      <h2>Card details</h2>
      <p>
        Payments are handled entirely by our card payment provider. Your card number, expiry date
        and security code are entered in the provider's secure form and go directly to the provider.
        They never reach our servers and the shop never stores them. We only learn whether the
        payment succeeded. The provider processes your payment under its own privacy policy.
      </p>

      <h2>Why we use it</h2>
      <ul>
        <li>to take your payment, print and assemble your order and ship it to you;</li>
        <li>
          to email you about your order: the confirmation, the tracking number and any problem;
        </li>
        <li>to answer your messages and handle cancellations and refunds;</li>
        <li>to let you sign in and keep your cart across visits and devices;</li>
        <li>to keep the accounting and tax records the law requires.</li>
      </ul>
      <p>We do not use your data for profiling, and we do not send marketing emails.</p>

      <h2>Who else sees it</h2>
      <p>
        <strong>We never sell your data</strong>, and we do not share it with advertisers. We pass
        on only what each service needs to do its job: the payment provider receives the order
        amount and your email address, the postal carrier receives your name and shipping address
        for the label, and our email service delivers the messages we send you. We may also disclose
        information when the law requires it.
      </p>
      <p>
        Your order's tracking page is reachable by anyone who has its link, so it never shows your
        full email address or street address. Keep the link to yourself all the same.
      </p>

      <h2>How long we keep it</h2>
      <ul>
        <li>
          Orders: for as long as tax and accounting law requires us to keep sales records, then they
          are deleted.
        </li>
        <li>Accounts: until you ask us to delete your account.</li>
        <li>Messages to us: as long as needed to answer them and follow up.</li>
        <li>Sign-in sessions: they expire on their own, and signing out ends them at once.</li>
        <li>Browser storage: until you clear it.</li>
      </ul>

      <h2>Your choices</h2>
      <p>
        You can ask us for a copy of the data we hold about you, ask us to correct it or ask us to
        delete it. We will do so, except for order records we must keep by law. Write to us from the
        email address the request is about, so we can tell that it is really you.
      </p>

      <h2>Security</h2>
      <p>
        The site is served only over an encrypted connection, passwords are stored hashed, and
        access to order data is limited to the people who pack and ship your orders.
      </p>

      <h2>Contact</h2>
      <p>
        Questions about your data? Write to us through the <Link to="/contact">contact page</Link>
        {" "}
        or by email at <a href={`mailto:${SHOP_CONTACT_EMAIL}`}>{SHOP_CONTACT_EMAIL}</a>.
      </p>
    </article>
  );
}
