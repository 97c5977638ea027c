import assert from "node:assert/strict";
import { smtpMailer } from "../../server/email/smtp_mailer.ts";
import { startFakeSmtp } from "../helpers/fake_smtp.ts";

Deno.test({
  name: "the SMTP mailer delivers an email to the server of SMTP_URL",
  async fn() {
    const smtp = startFakeSmtp();
    const mailer = smtpMailer(`${smtp.url}?ignoreTLS=true`, "shop@example.com");
    try {
      await mailer.send({
        to: "ann@example.com",
        replyTo: "help@example.com",
        subject: "Your order",
        text: "Thank you for your order!",
        html: "<p>Thank you for your order!</p>",
      });
      assert.equal(smtp.messages.length, 1);
      const [message] = smtp.messages;
      assert.match(message.from, /shop@example\.com/);
      assert.deepEqual(message.to.map((t) => t.replace(/[<>]/g, "")), ["ann@example.com"]);
      assert.match(message.data, /Subject: Your order/);
      assert.match(message.data, /Reply-To: help@example\.com/);
      assert.match(message.data, /Thank you for your order!/);
    } finally {
      mailer.close();
      await smtp.close();
    }
  },
});

Deno.test({
  name: "an unreachable SMTP server makes the send fail, so the outbox retries it",
  async fn() {
    const smtp = startFakeSmtp();
    const url = smtp.url;
    await smtp.close();
    const mailer = smtpMailer(`${url}?ignoreTLS=true&connectionTimeout=2000`, "shop@example.com");
    await assert.rejects(() =>
      mailer.send({ to: "a@example.com", subject: "x", text: "x", html: "x" })
    );
    mailer.close();
  },
});
