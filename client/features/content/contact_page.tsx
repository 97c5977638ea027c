import { type FormEvent, useState } from "react";
import { Link } from "react-router-dom";
import { toast } from "react-hot-toast";
import { CONTACT_MESSAGE_MAX, SHOP_CONTACT_EMAIL } from "../../../shared/policy.ts";
import { api, errorMessage } from "../../app/api.ts";
import { TextField } from "../../app/components/text_field.tsx";
import type { ContactInput } from "../../../shared/schemas.ts";

const EMPTY = { name: "", email: "", subject: "", message: "" };

/** The contact page: a form that writes to the shop, named or anonymous, and ways to reach us. */
export function ContactPage() {
  const [fields, setFields] = useState(EMPTY);
  const [anonymous, setAnonymous] = useState(false);
  const [sending, setSending] = useState(false);
  const remaining = CONTACT_MESSAGE_MAX - fields.message.length;

  function set(name: keyof typeof EMPTY, value: string) {
    setFields((f) => ({ ...f, [name]: value }));
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (sending) return;
    setSending(true);
    try {
      await api("/api/sendMessage", {
        method: "POST",
        body: {
          message: fields.message,
          topic: fields.subject,
          // Anonymous messages carry no address, so no reply is possible.
          userEmail: anonymous ? "" : fields.email.trim(),
          name: anonymous ? "" : fields.name.trim(),
        } satisfies ContactInput,
      });
      toast.success("Message sent successfully!");
      setFields(EMPTY);
      setAnonymous(false);
    } catch (err) {
      toast.error(errorMessage(err, "Failed to send message. Please try again later."));
    } finally {
      setSending(false);
    }
  }

  return (
    <section className="page contact-page">
      <h1>Contact</h1>
      <div className="contact-layout">
        <form className="card contact-form" onSubmit={submit} aria-label="Contact form">
          <label className="checkbox">
            <input
              type="checkbox"
              checked={anonymous}
              aria-describedby="anonymous-hint"
              onChange={(e) => setAnonymous(e.target.checked)}
            />
            Send anonymously (we will not be able to reply)
          </label>
          {/* Said, since checking it takes two fields off the form. */}
          <p id="anonymous-hint" className="muted small">
            {anonymous
              ? "The name and email fields are hidden."
              : "Hides the name and email fields."}
          </p>
          {!anonymous && (
            <>
              <TextField
                id="contact-name"
                name="name"
                label="Name"
                autoComplete="name"
                maxLength={100}
                value={fields.name}
                onChange={(v) => set("name", v)}
              />
              <TextField
                id="contact-email"
                name="email"
                label="Email"
                type="email"
                autoComplete="email"
                maxLength={254}
                value={fields.email}
                onChange={(v) => set("email", v)}
              />
            </>
          )}
          <TextField
            id="contact-subject"
            name="subject"
            label={
              <>
                Subject <RequiredMark />
              </>
            }
            required
            value={fields.subject}
            onChange={(v) => set("subject", v)}
          />
          <div className="field">
            <label htmlFor="contact-message">
              Message <RequiredMark />
            </label>
            <textarea
              id="contact-message"
              name="message"
              required
              maxLength={CONTACT_MESSAGE_MAX}
              value={fields.message}
              aria-describedby="contact-remaining"
              onChange={(e) => set("message", e.target.value)}
            />
            <span
              id="contact-remaining"
              className={remaining <= 100 ? "warn-text small" : "muted small"}
              data-testid="characters-remaining"
            >
              {remaining} characters remaining
            </span>
          </div>
          <button type="submit" className="button" aria-disabled={sending}>
            {sending ? "Sending..." : "Send message"}
          </button>
        </form>
        <aside className="contact-cards">
          <div className="card">
            <h2>Why write to us</h2>
            <ul>
              <li>A question about your order or its tracking</li>
              <li>Cancelling an order before it ships</li>
              <li>Help choosing switches for a tester</li>
              <li>Custom or bulk orders</li>
            </ul>
          </div>
          <div className="card">
            <h2>Contact details</h2>
            <p>
              Email: <a href={`mailto:${SHOP_CONTACT_EMAIL}`}>{SHOP_CONTACT_EMAIL}</a>
            </p>
            <p className="muted">We usually answer within one business day.</p>
            <p>
              Many answers are already in the <Link to="/faq">FAQ</Link>.
            </p>
          </div>
        </aside>
      </div>
    </section>
  );
}

/**
 * Says in words what the browser's `required` says to assistive technology; part of the label,
 * so the field's name reads "Subject (required)".
 */
function RequiredMark() {
  return <span className="muted required-mark">(required)</span>;
}
