import assert from "node:assert/strict";
import { e2eTest } from "./helpers/e2e.ts";
import { paidOrder } from "./helpers/api.ts";
import { expectToast } from "./helpers/browser.ts";

e2eTest(
  "contact: a named and an anonymous message are sent and the form is cleared",
  async (e2e) => {
    const { page, problems } = await e2e.newPage();
    await page.goto("/contact");
    await page.getByRole("heading", { name: "Contact", exact: true }).waitFor();
    assert.equal(await page.getByRole("link", { name: "FAQ" }).getAttribute("href"), "/faq");

    // Named: every field, and the counter turns orange near the limit.
    await page.getByLabel("Name").fill("Robin");
    await page.getByLabel("Email").fill("robin@example.com");
    await page.getByLabel("Subject").fill("Where is my tester?");
    const counter = page.getByTestId("characters-remaining");
    await page.getByLabel("Message").fill("x".repeat(710));
    assert.equal(await counter.textContent(), "90 characters remaining");
    assert.match(await counter.getAttribute("class") ?? "", /warn-text/);
    const message = "It has been a week, could you check my order?";
    await page.getByLabel("Message").fill(message);
    assert.equal(await counter.textContent(), `${800 - message.length} characters remaining`);
    assert.doesNotMatch(await counter.getAttribute("class") ?? "", /warn-text/);
    await page.getByRole("button", { name: "Send message" }).click();
    await expectToast(page, "Message sent successfully!");
    // The Send button kept the focus (it reads "Sending..." until the form is reset).
    assert.equal(
      await page.evaluate(() =>
        document.activeElement?.matches('.contact-form button[type="submit"]') ?? false
      ),
      true,
      "the Send button kept the focus",
    );
    // The toast may paint a frame before the form's own reset: wait for the reset, not the toast.
    await page.waitForFunction(() =>
      [...document.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>(
        "form input, form textarea",
      )]
        .every((field) => field.type === "checkbox" || field.value === "")
    );
    for (const label of ["Name", "Email", "Subject", "Message"]) {
      assert.equal(await page.getByLabel(label).inputValue(), "", `${label} is cleared`);
    }

    // Anonymous: name and email disappear and no address is sent.
    const anonymous = page.getByLabel(/Send anonymously/);
    await anonymous.check();
    assert.equal(await page.getByLabel("Name").count(), 0);
    assert.equal(await page.getByLabel("Email").count(), 0);
    await page.getByLabel("Subject").fill("Idea");
    await page.getByLabel("Message").fill("More silent switches, please.");
    const sent = page.waitForRequest((r) => r.url().endsWith("/api/sendMessage"));
    await page.getByRole("button", { name: "Send message" }).click();
    const body = JSON.parse((await sent).postData() ?? "{}");
    assert.deepEqual(body, {
      message: "More silent switches, please.",
      topic: "Idea",
      userEmail: "",
      name: "",
    });
    await expectToast(page, "Message sent successfully!");
    // The Send button kept the focus (it reads "Sending..." until the form is reset).
    assert.equal(
      await page.evaluate(() =>
        document.activeElement?.matches('.contact-form button[type="submit"]') ?? false
      ),
      true,
      "the Send button kept the focus",
    );
    // The toast may paint a frame before the form's own reset: wait for the reset, not the toast.
    await page.getByRole("checkbox", { name: /Send anonymously/, checked: false }).waitFor();
    assert.equal(await anonymous.isChecked(), false, "anonymous is unchecked after sending");
    assert.equal(await page.getByLabel("Subject").inputValue(), "");
    assert.deepEqual(problems.errors, []);
  },
);

e2eTest("a failed send keeps what was typed and says so", async (e2e) => {
  const { page, problems } = await e2e.newPage({ allow: [/sendMessage/] });
  await page.route(
    "**/api/sendMessage",
    (route) =>
      route.fulfill({ status: 500, contentType: "application/json", body: '{"error":"x"}' }),
  );
  await page.goto("/contact");
  await page.getByLabel("Subject").fill("Hello");
  await page.getByLabel("Message").fill("Are you there?");
  await page.getByRole("button", { name: "Send message" }).click();
  await expectToast(page, "Failed to send message. Please try again later.");
  assert.equal(await page.getByLabel("Subject").inputValue(), "Hello");
  assert.deepEqual(problems.errors, []);
});

e2eTest(
  "names and addresses with markup show as text in the admin and tracking pages",
  async (e2e) => {
    const markup = '<img src=x onerror="window.__pwned=1">';
    const layoutTesterId = 1;
    const orderNumber = await paidOrder(e2e.shop.url, {
      email: "mal@example.com",
      name: `Mal ${markup}`,
      address: {
        street: `1 ${markup} Rd`,
        apartment: "",
        city: "Austin",
        state: "TX",
        zipCode: "73301",
        country: "US",
      },
    }, layoutTesterId);

    const { page, problems } = await e2e.newPage({ allow: [/\/x$/] });
    await page.goto("/admin");
    await page.getByLabel("Enter admin password").fill(e2e.shop.adminPassword);
    await page.getByRole("button", { name: "Access Admin Panel" }).click();
    const row = page.getByTestId("new-orders").locator(`[data-order="${orderNumber}"]`);
    await row.waitFor();
    assert.ok(await row.getByText(`Mal ${markup}`).isVisible(), "the name is shown as typed");
    assert.ok(await row.getByText(markup, { exact: false }).first().isVisible());
    assert.equal(await page.locator('img[src="x"]').count(), 0, "no element was injected");
    assert.equal(
      await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned),
      undefined,
    );

    await page.goto(`/order/track/${orderNumber}`);
    await page.getByRole("heading", { name: "Thank you for your order!" }).waitFor();
    assert.equal(await page.locator('img[src="x"]').count(), 0);
    assert.equal(
      await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned),
      undefined,
    );
    assert.deepEqual(problems.errors, []);
  },
);
