/** Every Deno KV key of the shop is built here, so the data layout is readable in one place. */
import type { StockKey } from "../../shared/bom.ts";

export const keys = {
  /** Catalogue: a switch record. */
  switch: (id: number) => ["catalog", "switch", id] as const,
  switches: () => ["catalog", "switch"] as const,
  /** Catalogue: a product sold by id (pack or item). */
  product: (id: number) => ["catalog", "product", id] as const,
  products: () => ["catalog", "product"] as const,
  /** Catalogue: a themed pack (what its page shows), by its product id without keycaps. */
  pack: (id: number) => ["catalog", "pack", id] as const,
  packs: () => ["catalog", "pack"] as const,
  /** Uploaded images by the SHA-256 of their bytes: what they are, and their bytes in chunks. */
  image: (hash: string) => ["images", hash] as const,
  imageChunk: (hash: string, index: number) => ["image_chunks", hash, index] as const,
  imageChunks: (hash: string) => ["image_chunks", hash] as const,
  images: () => ["images"] as const,
  /**
   * Work owed later (an email, a hold's expiry, a refund), stored in the same atomic write as the
   * change that owes it and claimed by whichever process finds it due: by when it is due, then an
   * id (random, or a job's own name when writing it again must not make a second one).
   */
  job: (runAt: number, id: string) => ["jobs", runAt, id] as const,
  jobs: () => ["jobs"] as const,
  /** Due jobs end before this key: every job with runAt <= now. */
  jobsDueBy: (now: number) => ["jobs", Math.floor(now) + 1] as const,
  /** When a process last began the full start-up sweep (at most one every few minutes). */
  fullSweep: () => ["meta", "full_sweep_at"] as const,
  /** Stock and used counts of one component. */
  stock: (key: StockKey) => ["stock", key] as const,
  stocks: () => ["stock"] as const,
  /**
   * Low-stock alerts written with the stock change that caused them, until emailed: by time, and
   * a random id, since two falls of one component can happen in one millisecond.
   */
  lowStockAlert: (key: StockKey, at: number, id?: string) =>
    id === undefined
      ? ["low_stock_alerts", key, at] as const
      : ["low_stock_alerts", key, at, id] as const,
  lowStockAlerts: () => ["low_stock_alerts"] as const,
  /** Bumped on every stock change, so list endpoints can answer 304 cheaply. */
  stockVersion: () => ["meta", "stock_version"] as const,
  /** Carts. */
  cart: (id: string) => ["carts", id] as const,
  /** Orders and their lookups. */
  order: (orderNumber: string) => ["orders", orderNumber] as const,
  orders: () => ["orders"] as const,
  /** Every order by creation time, with what the admin filters on (kept by writeOrderTo). */
  orderByTime: (createdAt: number, orderNumber: string) =>
    ["orders_by_time", createdAt, orderNumber] as const,
  ordersByTime: () => ["orders_by_time"] as const,
  orderBySession: (sessionId: string) => ["order_by_session", sessionId] as const,
  ordersByUser: (userId: string, orderNumber: string) =>
    ["orders_by_user", userId, orderNumber] as const,
  userOrders: (userId: string) => ["orders_by_user", userId] as const,
  /** The unpaid checkout a cart started last (released when a new one starts). */
  pendingCheckout: (cartId: string) => ["pending_checkout", cartId] as const,
  pendingCheckouts: () => ["pending_checkout"] as const,
  /** Payment events already handled (idempotency). */
  paymentEvent: (eventId: string) => ["payment_events", eventId] as const,
  /** Payment events recorded but not yet handled (handled from the queue until they are). */
  paymentInbox: (eventId: string) => ["payment_inbox", eventId] as const,
  paymentInboxAll: () => ["payment_inbox"] as const,
  /** The unpaid checkouts one client holds stock with (at most MAX_HOLDS_PER_CLIENT). */
  holds: (client: string) => ["holds", client] as const,
  /** Promo codes. */
  promo: (code: string) => ["promo_codes", code] as const,
  promos: () => ["promo_codes"] as const,
  /** A code's uses by paid orders (a Deno.KvU64, summed in the write that pays the order). */
  promoUses: (code: string) => ["promo_uses", code] as const,
  /** The unpaid checkouts holding one of a limited code's uses (their order numbers). */
  promoHolds: (code: string) => ["promo_holds", code] as const,
  /** The same two per email address (lower case), for a code's per-email limit. */
  promoEmailUses: (code: string, email: string) => ["promo_email_uses", code, email] as const,
  promoEmailHolds: (code: string, email: string) => ["promo_email_holds", code, email] as const,
  /** The red banner on every page. */
  notice: () => ["site", "notice"] as const,
  /**
   * The catalogue's history before it was a view of the audit log: read only by the migration
   * that moves it into the log (server/ops/migrations.ts), and by its test.
   */
  edit: (at: number, id: string) => ["catalog_history", at, id] as const,
  edits: () => ["catalog_history"] as const,
  /** Data migrations already applied. */
  migration: (name: string) => ["meta", "migration", name] as const,
  /** Email outbox. */
  outbox: (id: string) => ["outbox", id] as const,
  outboxAll: () => ["outbox"] as const,
  emailSent: (dedupeKey: string) => ["email_sent", dedupeKey] as const,
  /** Whether deliveries have been failing, since when, and whether the owner was told. */
  mailHealth: () => ["mail", "health"] as const,
  /** Read and checked by the readiness probe (server/kv/probe.ts), and never written. */
  readyProbe: () => ["ready_probe"] as const,
  /** Contact messages. */
  contactMessage: (id: string) => ["contact_messages", id] as const,
  contactMessages: () => ["contact_messages"] as const,
  /** Rate limit counters per bucket, client and window. */
  rateLimit: (bucket: string, client: string, window: number) =>
    ["rate_limits", bucket, client, window] as const,
  /** A device that signed in to `account` ("admin" or an email), by the hash of its token. */
  knownDevice: (account: string, tokenHash: string) =>
    ["known_devices", account, tokenHash] as const,
  knownDevicesOf: (account: string) => ["known_devices", account] as const,
  /** The audit log: every admin write and sign-in, by time (then a random id for one time). */
  audit: (at: number, id: string) => ["audit", at, id] as const,
  audits: () => ["audit"] as const,
  /** Scripts' API keys by id; the id of a key by the SHA-256 of the key (the bearer's lookup). */
  apiKey: (id: string) => ["api_keys", id] as const,
  apiKeys: () => ["api_keys"] as const,
  apiKeyByHash: (keyHash: string) => ["api_key_hashes", keyHash] as const,
  /**
   * The same entries again by kind, by actor, and by both (copies written in the entry's own
   * atomic write), so a filter reads only what it answers, however rare the actor or kind.
   */
  auditByKind: (kind: string, at: number, id: string) => ["audit_by_kind", kind, at, id] as const,
  auditsByKind: (kind: string) => ["audit_by_kind", kind] as const,
  auditByActor: (actorId: string, at: number, id: string) =>
    ["audit_by_actor", actorId, at, id] as const,
  auditsByActor: (actorId: string) => ["audit_by_actor", actorId] as const,
  auditByActorKind: (actorId: string, kind: string, at: number, id: string) =>
    ["audit_by_actor_kind", actorId, kind, at, id] as const,
  auditsByActorKind: (actorId: string, kind: string) =>
    ["audit_by_actor_kind", actorId, kind] as const,
  /** Everyone who has an entry in the log (the Audit tab's person filter), by actor id. */
  auditActor: (actorId: string) => ["audit_actors", actorId] as const,
  auditActors: () => ["audit_actors"] as const,
  /** One account's second factors (TOTP, passkeys, recovery code hashes), by account id. */
  secondFactors: (accountId: string) => ["second_factors", accountId] as const,
  /** Which account a passkey (by its credential id) belongs to, for passwordless sign-in. */
  passkeyAccount: (credentialId: string) => ["passkey_accounts", credentialId] as const,
  /** A sign-in waiting for its second factor, by the hash of the challenge token. */
  signInChallenge: (tokenHash: string) => ["sign_in_challenges", tokenHash] as const,
  /** A WebAuthn ceremony's challenge (registration, passwordless sign-in), single use. */
  webauthnChallenge: (challenge: string) => ["webauthn_challenges", challenge] as const,
  /** The owner's security settings (require a second factor for staff). */
  securitySettings: () => ["settings", "security"] as const,
  /** Admin sessions by token hash. */
  adminSession: (tokenHash: string) => ["admin_sessions", tokenHash] as const,
  /**
   * Admin sessions by account ("owner" or a member's id) and shown id, holding the token hash, so
   * an account's sessions can be listed and ended (expires with the session at the latest).
   */
  adminSessionOf: (accountId: string, sessionId: string) =>
    ["admin_sessions_by_account", accountId, sessionId] as const,
  adminSessionsOf: (accountId: string) => ["admin_sessions_by_account", accountId] as const,
  adminSessionIndex: () => ["admin_sessions_by_account"] as const,
  /** Drops (server/drops/): a drop by id, and every drop (the owner's list). */
  drop: (id: string) => ["drops", id] as const,
  drops: () => ["drops"] as const,
  /**
   * The drop scheduled or running for a target ("switch:7", "pack:3", "item:51"): at most one at a
   * time, so the cart's gate reads one key per line.
   */
  dropByTarget: (target: string) => ["drop_by_target", target] as const,
  /** A drop's units held by unpaid checkouts and sold: checked and set in each checkout's write. */
  dropLedger: (id: string) => ["drop_ledger", id] as const,
  /**
   * When a drop was last scheduled: each scheduling checks and sets it, so two drops that would
   * share a product (overlap.ts) are never scheduled at once past each other's check.
   */
  dropScheduled: () => ["drop_scheduled"] as const,
  /** Units one person (account, email, address or network) holds or bought in a drop. */
  dropPerson: (id: string, person: string) => ["drop_persons", id, person] as const,
  dropPersons: (id: string) => ["drop_persons", id] as const,
  /** Refusals in a drop by reason (a KvU64 summed where refused), for the owner's view. */
  dropRefused: (id: string, reason: string) => ["drop_refused", id, reason] as const,
  dropRefusals: (id: string) => ["drop_refused", id] as const,
  /** A drop's tickets (places in its waiting room) by ticket, and each holder's one ticket. */
  dropTicket: (id: string, ticket: string) => ["drop_tickets", id, ticket] as const,
  dropTickets: (id: string) => ["drop_tickets", id] as const,
  dropTicketOf: (id: string, holder: string) => ["drop_ticket_of", id, holder] as const,
  /**
   * A drop's admissions so far ({ admitted }): every admission write checks and bumps it, so two
   * isolates admitting at once cannot both fill the same room.
   */
  dropAdmissions: (id: string) => ["drop_admissions", id] as const,
  /** "Email me when it opens": one sign-up per drop and address (lower case). */
  dropSignUp: (id: string, email: string) => ["drop_sign_ups", id, email] as const,
  dropSignUps: (id: string) => ["drop_sign_ups", id] as const,
  /**
   * When a drop's opening pass went over every sign-up (its time): later confirmations bring jobs
   * of their own, so a start need not store the opening again.
   */
  dropOpeningMailed: (id: string) => ["drop_opening_mailed", id] as const,
  /** A sign-up's confirmation link, by its token (expiring with it). */
  dropSignUpConfirm: (token: string) => ["drop_sign_up_confirms", token] as const,
  /** When each mailbox was last sent opening-mail confirmations (a few a day at most). */
  dropSignUpMailbox: (mailbox: string) => ["drop_sign_up_mailboxes", mailbox] as const,
  /** Staff members by id, their emails (lower case) and when each was last seen. */
  staffMember: (id: string) => ["staff", id] as const,
  staffMembers: () => ["staff"] as const,
  staffByEmail: (email: string) => ["staff_by_email", email] as const,
  staffLastSeen: (id: string) => ["staff_last_seen", id] as const,
  /** A staff invitation link, by the hash of its token (expires with the link). */
  staffInvite: (tokenHash: string) => ["staff_invites", tokenHash] as const,
  /** Accounts. */
  user: (userId: string) => ["users", userId] as const,
  userByEmail: (email: string) => ["users_by_email", email] as const,
  userSession: (tokenHash: string) => ["user_sessions", tokenHash] as const,
  userCart: (userId: string) => ["user_carts", userId] as const,
  /** A password reset link, by the hash of its token (expires with the link). */
  passwordReset: (tokenHash: string) => ["password_resets", tokenHash] as const,
  /** Back-in-stock sign-ups by what they wait for ("switch:12", "product:384") and email. */
  stockAlert: (subject: string, email: string) => ["stock_alerts", subject, email] as const,
  stockAlerts: () => ["stock_alerts"] as const,
  /** A sign-up by its unsubscribe token. */
  stockAlertToken: (token: string) => ["stock_alert_tokens", token] as const,
  /** An address asked for back-in-stock emails: its round of sign-ups, live link and last send. */
  stockAlertAddress: (email: string) => ["stock_alert_addresses", email] as const,
  stockAlertAddresses: () => ["stock_alert_addresses"] as const,
  /** A back-in-stock confirmation link, by its token (expires with the link). */
  stockAlertConfirm: (token: string) => ["stock_alert_confirms", token] as const,
  stockAlertConfirms: () => ["stock_alert_confirms"] as const,
  /** When a mailbox (however spelled) was last sent confirmations, within a day. */
  stockAlertMailbox: (mailbox: string) => ["stock_alert_mailboxes", mailbox] as const,
};
