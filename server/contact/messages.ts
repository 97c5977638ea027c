import { escapeHtml } from "../../shared/html.ts";
import type { Clock } from "../clock.ts";
import { queueEmailInto } from "../email/outbox.ts";
import { keys } from "../kv/keys.ts";
import { randomId } from "../crypto.ts";

/** A message sent from the contact page. */
export interface ContactMessage {
  id: string;
  topic: string;
  message: string;
  userEmail: string;
  name: string;
  createdAt: number;
}

/** Stores a contact message and queues it as an email to the shop, in one atomic write. */
export async function saveContactMessage(
  kv: Deno.Kv,
  clock: Clock,
  shopEmail: string,
  input: Omit<ContactMessage, "id" | "createdAt">,
): Promise<ContactMessage> {
  const now = clock.now();
  const record: ContactMessage = {
    ...input,
    id: `${now.toString(36)}-${randomId(8)}`,
    createdAt: now,
  };
  const from = input.userEmail
    ? `${input.name ? `${input.name} ` : ""}<${input.userEmail}>`
    : "an anonymous shopper (no reply possible)";
  const op = kv.atomic().set(keys.contactMessage(record.id), record);
  queueEmailInto(op, {
    to: shopEmail,
    subject: `Contact: ${input.topic}`,
    replyTo: input.userEmail || undefined,
    text: `From ${from}\nSubject: ${input.topic}\n\n${input.message}\n`,
    html: `<p>From ${escapeHtml(from)}</p><p><strong>Subject:</strong> ${
      escapeHtml(input.topic)
    }</p><p style="white-space:pre-wrap">${escapeHtml(input.message)}</p>`,
  }, now);
  await op.commit();
  return record;
}
