/**
 * Hostile input suite (issue item 6): every API route, each given a table of bad inputs built from
 * its valid request. Whatever arrives, the answer is never a 5xx; a refused input gets a 4xx JSON
 * `{ error }` a person can read, without internals, and leaves the KV contents as they were. Inputs
 * that look bad but are legitimately accepted (unknown fields dropped, markup in a name stored as
 * text, ...) are listed per route with the reason, and must answer 2xx.
 */
import assert from "node:assert/strict";
import {
  adminCookie,
  createTestApp,
  fakeDist,
  forgetRateLimits,
  TEST_ADMIN_PASSWORD,
  type TestApp,
} from "../helpers/test_app.ts";
import { FAKE_WEBHOOK_SECRET } from "../helpers/fake_stripe.ts";
import { keyText, type WatchedKv, watchedKv } from "../helpers/watched_kv.ts";
import { listOutbox } from "../../server/email/outbox.ts";
import {
  newPackCart,
  paidOrder,
  payDemo,
  sessionIdOf,
  STARTER,
  startHostedCheckout,
  US_ADDRESS,
} from "../helpers/shop_fixtures.ts";
import { stripePayments } from "../../server/payments/stripe/provider.ts";
import { z } from "zod";
import {
  adminEmailsQuerySchema,
  adminOrdersQuerySchema,
  adminSessionsQuerySchema,
  adminVerifySchema,
  apiKeyCreateSchema,
  auditCsvQuerySchema,
  auditQuerySchema,
  contactSchema,
  customerCancelSchema,
  deleteAccountSchema,
  demoPaySchema,
  extendHoldSchema,
  inviteAcceptSchema,
  itemUpdateSchema,
  loginSchema,
  noticeSchema,
  orderCreateSchema,
  ordersCsvQuerySchema,
  packUpdateSchema,
  passwordResetConfirmSchema,
  passwordResetSchema,
  paymentIntentSchema,
  promoCreateSchema,
  promoUpdateSchema,
  promoValidateSchema,
  quantityUpdateSchema,
  registerSchema,
  salesQuerySchema,
  shipChosenSchema,
  simpleAddSchema,
  staffInviteSchema,
  staffRoleSchema,
  stockAlertConfirmQuerySchema,
  stockAlertSchema,
  stockUpdateSchema,
  switchCreateSchema,
  switchUpdateSchema,
  testerAddSchema,
  trackingSchema,
  unsubscribeQuerySchema,
} from "../../shared/schemas.ts";
import { SWITCHES } from "../../shared/catalog/switches.ts";
import { PACKS } from "../../shared/catalog/packs.ts";
import { pngFile } from "../helpers/image_files.ts";
import {
  addPasskeySchema,
  passkeySignInSchema,
  secondStepOptionsSchema,
  secondStepSchema,
  securitySettingsSchema,
  totpCodeSchema,
} from "../../shared/second_factor_schemas.ts";
import { changeFactors } from "../../server/staff/second_factors.ts";
import {
  dropJoinSchema,
  dropNotifySchema,
  dropScheduleSchema,
  dropTicketQuerySchema,
} from "../../shared/drops.ts";
import { newTotpSecret, totpCode } from "../../server/staff/totp.ts";

type Json = Record<string, unknown>;

// ---------------------------------------------------------------------------------------------
// The table's vocabulary

/**
 * One field of a JSON body or query string, described enough to derive its bad values. Tables
 * are made from the shared schemas the routes validate with (`fieldsOf`), never kept by hand.
 */
interface Field {
  type: "string" | "number" | "boolean" | "object" | "array";
  /** Leaving it out is fine. */
  optional?: true;
  /** null is read as "not given". */
  nullable?: true;
  /** Free text shown to people: markup is stored as text and escaped wherever it is shown. */
  freeText?: true;
  /** Nested fields of an object. */
  fields?: Record<string, Field>;
}

/** A route's valid request; each hostile case changes one part of it. */
interface Base {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: Json;
  headers?: Record<string, string>;
}

/** A request as sent. */
interface Sent {
  path: string;
  body?: string;
  headers: Record<string, string>;
}

/** One hostile case: a label for the table and how to make the request from a valid base. */
interface Mutation {
  label: string;
  build(route: Route, base: Base): Sent;
  /** The exact status every route must answer (413 for a huge body, ...); otherwise any 4xx. */
  status?: number;
}

/** How a route reads its body. */
type BodyKind =
  | { kind: "none" } // GET: no body can be sent
  | { kind: "ignored" } // a POST that takes no body
  | { kind: "json"; fields: Record<string, Field>; optional?: true }
  | { kind: "raw" }; // the Stripe webhook reads the bytes for the signature

interface Route {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** The path template, with `:name` parameters and `*` for a wildcard. */
  path: string;
  base: (ctx: GroupContext) => Promise<Base> | Base;
  /** A new base for every case, for routes whose accepted inputs use up their fixture. */
  fresh?: true;
  query?: Record<string, Field>;
  body: BodyKind;
  /** Cases answered 2xx by design: label -> why. */
  accepts?: Record<string, string>;
  /** Refused cases that legitimately write to the KV: label -> why (and the key prefix). */
  writes?: Record<string, { why: string; prefix: string }>;
  /** Cases with a status of their own: label -> status. */
  statuses?: Record<string, number>;
  /** Routes outside the JSON API that answer errors as plain text: why. */
  textErrors?: string;
  /** Extra cases specific to the route. */
  extra?: Mutation[];
}

/** What a group's routes share: the app and the fixtures made once. */
interface GroupContext {
  t: TestApp;
  /** The store every write of the group passes through, noted. */
  watched: WatchedKv;
  [key: string]: unknown;
}

interface Group {
  name: string;
  options?: Parameters<typeof createTestApp>[0];
  setup?: (t: TestApp) => Promise<Json>;
  routes: Route[];
}

// ---------------------------------------------------------------------------------------------
// Hostile values

const KB = 1024;
/** Addresses the extend-hold cases have checked out from, so none meets the per-client holds. */
let extendClients = 0;
const CONTROL = "\u0000\u0007\u202e";
const MARKUP = "<script>alert(1)</script>";
const LONG_FIELD = "x".repeat(60 * KB); // under the 64 KB body limit: reaches validation
const HUGE_FIELD = "x".repeat(100 * KB); // over it: refused before parsing
const ONE_MB = JSON.stringify({ pad: "x".repeat(KB * KB) });

/** Path segments, already as they appear in a URL. */
const SEGMENTS: [string, string][] = [
  ["..", ".."],
  ["%2e%2e", "%2e%2e"],
  ["a%2Fb", "a%2Fb"],
  ["ünïcødé", encodeURIComponent("ünïcødé")],
  ["%00", "%00"],
  ["lone %", "%"],
  ["bad UTF-8 %E0%A4%A", "%E0%A4%A"],
  ["control and RTL", "%07%1B%E2%80%AE"],
  ["markup", encodeURIComponent(MARKUP)],
  ["5000-char segment", "A".repeat(5000)],
  ["empty", ""],
  ["-1", "-1"],
  ["1.5", "1.5"],
  ["1e308", "1e308"],
  ["NaN", "NaN"],
  ["Infinity", "Infinity"],
  ["1e3", "1e3"],
];

/** Query values, as text before URL encoding. */
const QUERY_VALUES: [string, string][] = [
  ["empty", ""],
  ["-1", "-1"],
  ["1.5", "1.5"],
  ["1e308", "1e308"],
  ["NaN", "NaN"],
  ["Infinity", "Infinity"],
  ["1e3", "1e3"],
  ["100 KB value", HUGE_FIELD],
  ["control and RTL", CONTROL],
  ["markup", MARKUP],
];

const NUMBERS: [string, unknown][] = [
  ["-1", -1],
  ["1.5", 1.5],
  ["1e308", 1e308],
  ["2^53+1", 2 ** 53 + 1],
  ['"NaN"', "NaN"],
  ['"Infinity"', "Infinity"],
  ['"1e3"', "1e3"],
];

const WRONG_TYPES: Record<Field["type"], [string, unknown][]> = {
  string: [["number", 42], ["boolean", true], ["array", ["x"]], ["object", { x: 1 }]],
  number: [["text", "abc"], ["boolean", true], ["array", [1]], ["object", { n: 1 }]],
  boolean: [["text", "yes"], ["number", 1], ["array", [true]]],
  object: [["text", "x"], ["array", []], ["number", 42]],
  array: [["text", "x"], ["object", {}], ["number", 42]],
};

// ---------------------------------------------------------------------------------------------
// Building requests

const JSON_HEADERS = { "Content-Type": "application/json" };

function fillPath(route: Route, params: Record<string, string>): string {
  return route.path.replace(/:(\w+)|\*/g, (m, name) => params[name ?? m] ?? "");
}

function queryString(query: Record<string, string | string[]>): string {
  const parts = Object.entries(query).flatMap(([k, v]) =>
    (Array.isArray(v) ? v : [v]).map((x) => `${encodeURIComponent(k)}=${encodeURIComponent(x)}`)
  );
  return parts.length ? `?${parts.join("&")}` : "";
}

function encodeParams(params: Record<string, string>): Record<string, string> {
  // The wildcard keeps its slashes; a named parameter is one segment.
  return Object.fromEntries(
    Object.entries(params).map(([k, v]) => [k, k === "*" ? v : encodeURIComponent(v)]),
  );
}

/** The valid request with some parts replaced. */
function request(
  route: Route,
  base: Base,
  change: {
    params?: Record<string, string>;
    query?: Record<string, string | string[]>;
    body?: string;
    headers?: Record<string, string>;
  } = {},
): Sent {
  const params = { ...encodeParams(base.params ?? {}), ...change.params };
  const validBody = route.body.kind === "json" && base.body ? JSON.stringify(base.body) : undefined;
  const body = change.body ?? validBody;
  return {
    path: fillPath(route, params) + queryString(change.query ?? base.query ?? {}),
    body,
    headers: {
      ...(body !== undefined && change.body === undefined ? JSON_HEADERS : {}),
      ...base.headers,
      ...change.headers,
    },
  };
}

function jsonBody(route: Route, base: Base, body: unknown): Sent {
  return request(route, base, { body: JSON.stringify(body), headers: JSON_HEADERS });
}

function setAt(body: Json, path: string[], value: unknown, remove = false): Json {
  const copy = structuredClone(body);
  let target: Json = copy;
  for (const key of path.slice(0, -1)) target = target[key] as Json;
  if (remove) delete target[path.at(-1)!];
  else target[path.at(-1)!] = value;
  return copy;
}

// ---------------------------------------------------------------------------------------------
// Deriving the cases of a route

function paramMutations(route: Route): Mutation[] {
  const names = [...route.path.matchAll(/:(\w+)|\*/g)].map((m) => m[1] ?? "*");
  return names.flatMap((name) =>
    SEGMENTS.map(([label, segment]): Mutation => ({
      label: `param ${name}: ${label}`,
      build: (r, base) => request(r, base, { params: { [name]: segment } }),
    }))
  );
}

function queryMutations(route: Route): Mutation[] {
  const unexpected: Mutation = {
    label: "query: unexpected parameters",
    build: (r, base) =>
      request(r, base, { query: { ...base.query, debug: "1", "<x>": MARKUP, q: CONTROL } }),
  };
  if (!route.query) {
    return [unexpected, {
      label: "query: 100 KB query string",
      build: (r, base) => request(r, base, { query: { ...base.query, pad: HUGE_FIELD } }),
    }];
  }
  return [
    unexpected,
    ...Object.keys(route.query).flatMap((name): Mutation[] => [
      {
        label: `query ${name}: missing`,
        build: (r, base) => {
          const { [name]: _, ...rest } = base.query ?? {};
          return request(r, base, { query: rest });
        },
      },
      {
        label: `query ${name}: repeated`,
        build: (r, base) =>
          request(r, base, { query: { ...base.query, [name]: [base.query?.[name] ?? "1", "2"] } }),
      },
      ...QUERY_VALUES.map(([label, value]): Mutation => ({
        label: `query ${name}: ${label}`,
        build: (r, base) => request(r, base, { query: { ...base.query, [name]: value } }),
      })),
    ]),
  ];
}

function fieldMutations(fields: Record<string, Field>, prefix: string[] = []): Mutation[] {
  return Object.entries(fields).flatMap(([name, field]) => {
    const path = [...prefix, name];
    const at = `body ${path.join(".")}`;
    const set = (label: string, value: unknown): Mutation => ({
      label: `${at}: ${label}`,
      build: (r, base) => jsonBody(r, base, setAt(base.body ?? {}, path, value)),
    });
    const cases: Mutation[] = [
      {
        label: `${at}: missing`,
        build: (r, base) => jsonBody(r, base, setAt(base.body ?? {}, path, undefined, true)),
      },
      set("null", null),
      ...WRONG_TYPES[field.type].map(([label, value]) => set(`wrong type (${label})`, value)),
    ];
    if (field.type === "number") cases.push(...NUMBERS.map(([label, v]) => set(label, v)));
    if (field.type === "string") {
      cases.push(
        set("60 KB string", LONG_FIELD),
        set("control and RTL characters", CONTROL),
        set("markup", MARKUP),
      );
    }
    if (field.type === "array") cases.push(set("1000 elements", Array(1000).fill({ id: 1 })));
    if (field.fields) cases.push(...fieldMutations(field.fields, path));
    return cases;
  });
}

/** Labels a field table accepts by its own description: optional, nullable, free text. */
function fieldAccepts(fields: Record<string, Field>, prefix: string[] = []): [string, string][] {
  return Object.entries(fields).flatMap(([name, field]): [string, string][] => {
    const path = [...prefix, name];
    const at = `body ${path.join(".")}`;
    return [
      ...(field.optional ? [[`${at}: missing`, "optional"] as [string, string]] : []),
      ...(field.nullable ? [[`${at}: null`, "null means not given"] as [string, string]] : []),
      ...(field.freeText
        ? [[`${at}: markup`, "stored as text, escaped where shown"] as [string, string]]
        : []),
      ...(field.fields ? fieldAccepts(field.fields, path) : []),
    ];
  });
}

function rawBody(label: string, text: string, headers: Record<string, string>, status?: number) {
  return {
    label: `body: ${label}`,
    status,
    build: (r: Route, base: Base) => request(r, base, { body: text, headers }),
  };
}

function bodyMutations(route: Route): Mutation[] {
  const body = route.body;
  if (body.kind === "none") return [];
  const huge = rawBody("1 MB", ONE_MB, JSON_HEADERS, 413);
  if (body.kind === "ignored") {
    return [
      huge,
      rawBody("unexpected JSON", JSON.stringify({ admin: true, html: MARKUP }), JSON_HEADERS),
      rawBody("invalid JSON", "{nope", JSON_HEADERS),
      rawBody("text/plain", MARKUP, { "Content-Type": "text/plain" }),
    ];
  }
  // The webhook refuses before parsing (404 in demo mode, 400 for the signature).
  const parseError = body.kind === "json" ? 400 : undefined;
  const common: Mutation[] = [
    huge,
    rawBody("invalid JSON", '{"oops": ', JSON_HEADERS, parseError),
    rawBody("NaN literal", '{"n": NaN}', JSON_HEADERS, parseError),
    rawBody("JSON array", "[]", JSON_HEADERS),
    rawBody("JSON null", "null", JSON_HEADERS),
    rawBody("JSON string", '"hello"', JSON_HEADERS),
    rawBody("deeply nested", "[".repeat(5000) + "]".repeat(5000), JSON_HEADERS),
  ];
  if (body.kind === "raw") {
    return [
      ...common,
      rawBody("empty", "", JSON_HEADERS),
      rawBody("text/plain", MARKUP, { "Content-Type": "text/plain" }),
      rawBody("forged signature", '{"id":"evt_1","type":"checkout.session.completed"}', {
        ...JSON_HEADERS,
        "stripe-signature": `t=1,v1=${"0".repeat(64)}`,
      }),
      rawBody("markup signature", "{}", { ...JSON_HEADERS, "stripe-signature": MARKUP }),
    ];
  }
  const validAs = (label: string, type: string): Mutation => ({
    label: `body: ${label}`,
    status: 415,
    build: (r, base) =>
      request(r, base, { body: JSON.stringify(base.body), headers: { "Content-Type": type } }),
  });
  return [
    ...common,
    rawBody("empty", "", JSON_HEADERS),
    validAs("text/plain", "text/plain"),
    validAs("form-urlencoded", "application/x-www-form-urlencoded"),
    validAs("multipart", "multipart/form-data; boundary=x"),
    {
      label: "body: 100 KB string field",
      status: 413,
      build: (r, base) => jsonBody(r, base, { ...base.body, pad: HUGE_FIELD }),
    },
    { label: "body: {}", build: (r, base) => jsonBody(r, base, {}) },
    {
      label: "body: extra fields",
      build: (r, base) => jsonBody(r, base, { ...base.body, isAdmin: true, status: "PAID" }),
    },
    {
      label: "body: prototype keys",
      build: (r, base) =>
        request(r, base, {
          body: JSON.stringify(base.body).replace(
            /^\{/,
            '{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"isAdmin":true}},',
          ),
          headers: JSON_HEADERS,
        }),
    },
    ...fieldMutations(body.fields),
  ];
}

function casesOf(route: Route): Mutation[] {
  const hasParams = /:|\*/.test(route.path);
  const trailing: Mutation[] = hasParams ? [] : [{
    label: "path: unknown trailing segment",
    build: (r, base) => {
      const sent = request(r, base);
      const [path, query = ""] = sent.path.split("?");
      const segment = encodeURIComponent("ünïcødé");
      return { ...sent, path: `${path}/${segment}${query ? `?${query}` : ""}` };
    },
  }];
  return [
    ...paramMutations(route),
    ...trailing,
    ...queryMutations(route),
    ...bodyMutations(route),
    ...(route.extra ?? []),
  ];
}

/** Why each accepted label is accepted, for the route: its own table plus the field tables. */
function acceptsOf(route: Route): Record<string, string> {
  // The webhook has no valid request here (no signing secret is shared): it refuses everything.
  if (route.body.kind === "raw") return { ...route.accepts };
  const derived: Record<string, string> = {
    "query: unexpected parameters": "unknown query parameters are ignored",
  };
  if (!route.query) derived["query: 100 KB query string"] = "the route reads no query";
  for (const [name, field] of Object.entries(route.query ?? {})) {
    if (field.optional) derived[`query ${name}: missing`] = "the parameter is optional";
  }
  if (route.body.kind === "json") {
    Object.assign(derived, Object.fromEntries(fieldAccepts(route.body.fields)), {
      "body: extra fields": "unknown fields are dropped by the schema, never stored",
      "body: prototype keys": "JSON.parse makes own keys, and the schema drops them",
    });
  }
  if (route.body.kind === "ignored") {
    for (const label of ["unexpected JSON", "invalid JSON", "text/plain"]) {
      derived[`body: ${label}`] = "the route takes no body and never reads it";
    }
  }
  return { ...derived, ...route.accepts };
}

// ---------------------------------------------------------------------------------------------
// Checking answers

/** Rate limit counters legitimately change on refused requests, so snapshots leave them out. */
const UNCOUNTED = ["rate_limits"];

/** A KV entry as a snapshot keeps it: its versionstamp, and its value to compare when that moved. */
interface Kept {
  versionstamp: string;
  value: unknown;
}

/** Every KV entry but the uncounted ones, by key (as JSON). */
async function kvState(kv: Deno.Kv): Promise<Map<string, Kept>> {
  const entries = new Map<string, Kept>();
  for await (const e of kv.list({ prefix: [] }, { batchSize: 1000 })) {
    if (UNCOUNTED.includes(String(e.key[0]))) continue;
    entries.set(keyText(e.key), { versionstamp: e.versionstamp, value: e.value });
  }
  return entries;
}

/**
 * Brings `state` up to the store by reading again the keys written through the watched KV since
 * the last call, and answers those (as JSON) added, removed or given another value: as the shared
 * `changedKeys` of `snapshot`s, an entry written again with the same value is not a change. Over
 * a thousand cases, reading the whole store (thousands of entries) after each was the file's main
 * cost; `runRoute` reads it whole once per route, to check this reading against.
 */
async function catchUp(state: Map<string, Kept>, watched: WatchedKv): Promise<string[]> {
  const written = watched.take().filter((key) => !UNCOUNTED.includes(String(key[0])));
  const changed: string[] = [];
  for (let i = 0; i < written.length; i += 10) {
    const batch = written.slice(i, i + 10);
    const entries = await watched.kv.getMany(batch);
    for (const entry of entries) {
      const key = keyText(entry.key);
      const a = state.get(key);
      const b = entry.versionstamp === null
        ? undefined
        : { versionstamp: entry.versionstamp, value: entry.value };
      if (b) state.set(key, b);
      else state.delete(key);
      if (!a && !b) continue;
      if (
        !a || !b ||
        a.versionstamp !== b.versionstamp &&
          JSON.stringify(a.value, kvJson) !== JSON.stringify(b.value, kvJson)
      ) changed.push(key);
    }
  }
  return changed;
}

/** JSON for what KV can hold beyond plain JSON (as the shared snapshot writes it). */
function kvJson(_key: string, value: unknown): unknown {
  if (typeof value === "bigint") return `${value}n`;
  if (value instanceof Uint8Array) return { bytes: [...value] };
  if (value instanceof Deno.KvU64) return `${value.value}u64`;
  return value;
}

/** Signs of internals: stack frames, source paths, raw error names. */
const LEAK =
  /(^|\n|")\s*at \S+ \(|(^|\n|")\s*at (file|https?|ext):|\.tsx?:\d|file:\/\/|\/work\/|node_modules|(^|\n|")\s*\w*Error:/;

/** What is wrong with a refusal's body, or null when it is a readable JSON error. */
function errorProblem(res: { text: string; json: unknown }): string | null {
  const error = (res.json as { error?: unknown } | undefined)?.error;
  if (typeof error !== "string" || !error.trim()) return "no JSON `error` string";
  if (LEAK.test(res.text)) return "leaks internals";
  if (error.length > 500) return `an error of ${error.length} characters is not readable`;
  return null;
}

const tally = { routes: new Set<string>(), cases: 0, accepted: 0 };

async function runRoute(ctx: GroupContext, route: Route): Promise<void> {
  const { t } = ctx;
  const name = `${route.method} ${route.path}`;
  tally.routes.add(name);
  const accepts = acceptsOf(route);
  const cases = casesOf(route);
  const labels = new Set(cases.map((c) => c.label));
  assert.equal(labels.size, cases.length, `${name}: case labels are unique`);
  const named = [route.accepts, route.writes, route.statuses].flatMap((m) => Object.keys(m ?? {}));
  for (const label of named) {
    assert.ok(labels.has(label), `${name}: the table names a case that does not exist: ${label}`);
  }
  const failures: string[] = [];
  const shared = route.fresh ? null : await route.base(ctx);
  const { watched } = ctx;
  // The store as it stands, kept up with every write since: each case reads again only the keys
  // written after the one before (the fixtures' writes too, which are not a case's change).
  watched.take();
  const state = await kvState(t.kv);
  // The refused case before this one, whose state was checked unchanged: a write seen before the
  // next request was made after its answer, and is its change.
  let lastRefused: string | null = null;
  const blameLate = async () => {
    const late = await catchUp(state, watched);
    if (lastRefused && late.length) {
      failures.push(
        `${lastRefused}: changed the KV after its answer: ${late.slice(0, 3).join(", ")}`,
      );
    }
    lastRefused = null;
  };
  for (const mutation of cases) {
    if (route.fresh) lastRefused = null;
    const base = shared ?? await route.base(ctx);
    // Cases would otherwise trip the login, contact and order lookup limits meant for people.
    await forgetRateLimits(t.kv);
    await blameLate();
    const sent = mutation.build(route, base);
    const status = route.statuses?.[mutation.label] ?? mutation.status;
    const accepted = status === undefined ? accepts[mutation.label] : undefined;
    const res = await t.request(sent.path, {
      method: route.method,
      body: sent.body,
      headers: sent.headers,
    });
    const written = await catchUp(state, watched);
    tally.cases++;
    const fail = (what: string) =>
      failures.push(`${mutation.label}: ${what} (got ${res.status} ${res.text.slice(0, 160)})`);
    if (res.status >= 500) {
      fail("a 5xx");
      continue;
    }
    if (accepted) {
      tally.accepted++;
      if (res.status < 200 || res.status > 299) fail(`should be accepted: ${accepted}`);
      continue;
    }
    if (status !== undefined && res.status !== status) fail(`should be ${status}`);
    if (res.status < 400) {
      fail("should be refused with a 4xx");
      continue;
    }
    if (!route.textErrors) {
      const problem = errorProblem(res);
      if (problem) fail(problem);
    }
    const writes = route.writes?.[mutation.label];
    // A case that may write (its `writes`) is not blamed for what is written after it.
    if (!writes) lastRefused = mutation.label;
    const changed = written
      // A prefix covers its record's indexes too ("audit" its "audit_by_kind" copies).
      .filter((k) => !writes || !k.startsWith(`["${writes.prefix}`));
    if (changed.length) fail(`changed the KV: ${changed.slice(0, 3).join(", ")}`);
  }
  await blameLate();
  // Every write passed the watched KV, so the state kept up with it is the store read afresh.
  const afresh = await kvState(t.kv);
  assert.deepEqual(
    [...state].map(([k, e]) => [k, e.versionstamp]).sort(),
    [...afresh].map(([k, e]) => [k, e.versionstamp]).sort(),
    `${name}: a write escaped the watched KV`,
  );
  assert.deepEqual(failures, [], `${name}: ${failures.length} of ${cases.length} cases failed`);
}

async function runGroup(group: Group, test: Deno.TestContext): Promise<void> {
  // Sign-ins and sign-ups hash every case: a cheap hash, since what is tested is the answer.
  await using store = await Deno.openKv(":memory:");
  const watched = watchedKv(store);
  await using t = await createTestApp({
    ...group.options,
    kv: watched.kv,
  });
  const ctx: GroupContext = { t, watched, ...(await group.setup?.(t)) };
  for (const route of group.routes) {
    await test.step(`${route.method} ${route.path}`, () => runRoute(ctx, route));
  }
}

// ---------------------------------------------------------------------------------------------
// Fixtures, made through the real API (the shared ones are in ../helpers/shop_fixtures.ts)

async function embeddedIntent(t: TestApp): Promise<string> {
  const res = await t.request("/api/orders/create", {
    method: "POST",
    body: {
      cartId: await newPackCart(t),
      email: "ann@example.com",
      customerName: "Ann Lee",
      shippingAddress: US_ADDRESS,
    },
  });
  assert.equal(res.status, 200, res.text);
  return res.json.paymentIntentId;
}

async function shippedOrder(t: TestApp, cookie: string): Promise<string> {
  const { orderNumber } = await paidOrder(t);
  const headers = { Cookie: cookie };
  const tracked = await t.request(`/api/admin/orders/${orderNumber}/tracking`, {
    method: "POST",
    body: { trackingNumber: "9400 1000" },
    headers,
  });
  assert.equal(tracked.status, 200, tracked.text);
  const ship = await t.request("/api/admin/orders/ship-processed", { method: "POST", headers });
  assert.equal(ship.status, 200, ship.text);
  return orderNumber;
}

/** Stock for hundreds of checkouts, since every case of some routes starts one. */
let confirmations = 0;

/** A working back-in-stock confirmation link's token, for a new address each time. */
async function confirmationToken(t: TestApp): Promise<string> {
  const email = `confirm${++confirmations}@example.com`;
  const res = await t.request("/api/stock-alerts", {
    method: "POST",
    body: { email, switchId: STARTER.switchIds[0] },
  });
  assert.equal(res.status, 200, res.text);
  const mail = (await listOutbox(t.kv)).find((e) => e.email.to === email)!;
  return /confirm\?token=([A-Za-z0-9_-]+)/.exec(mail.email.text)![1];
}

async function plentyOfStock(t: TestApp): Promise<void> {
  for await (const e of t.kv.list<Json>({ prefix: ["stock"] })) {
    await t.kv.set(e.key, { ...e.value, stock: 100_000 });
  }
}

// ---------------------------------------------------------------------------------------------
// The table

const NO_BODY = { kind: "none" } as const;

/** A search of the owner's lists takes any short text: what matches nothing finds nothing. */
function searchAccepts(name: string): Record<string, string> {
  return Object.fromEntries(
    QUERY_VALUES.filter(([label]) => label !== "100 KB value").map((
      [label],
    ) => [`query ${name}: ${label}`, "any text is a search (an empty one is none)"]),
  );
}
const IGNORED_BODY = { kind: "ignored" } as const;

// deno-lint-ignore no-explicit-any
type ZodDef = any;

/**
 * The field table of a shared zod object schema (the first option of a union): each field's
 * type, whether it may be missing or null, and whether it is free text (`FREE_TEXT` in
 * shared/schemas.ts). `rules` adjusts a field by its dotted path where the route adds a rule of
 * its own on top of the schema (say, a tax ID required for business purchases).
 */
function fieldsOf(
  schema: z.ZodType,
  rules: Record<string, Partial<Field>> = {},
  prefix = "",
): Record<string, Field> {
  let def: ZodDef = (schema as ZodDef)._zod.def;
  while (def.type === "union" || def.type === "pipe") {
    def = def.type === "union" ? def.options[0]._zod.def : def.in._zod.def;
  }
  return Object.fromEntries(
    Object.entries(def.shape as Record<string, z.ZodType>).map(([name, field]) => {
      const path = prefix + name;
      return [name, { ...fieldOf(field, rules, `${path}.`), ...rules[path] }];
    }),
  );
}

function fieldOf(schema: z.ZodType, rules: Record<string, Partial<Field>>, prefix: string): Field {
  const field: Partial<Field> = {};
  let current: ZodDef = schema;
  for (;;) {
    if (z.globalRegistry.get(current)?.freeText) field.freeText = true;
    const def = current._zod.def;
    if (def.type === "optional" || def.type === "default") field.optional = true;
    else if (def.type === "nullable") field.nullable = true;
    else if (def.type !== "pipe") break;
    current = def.type === "pipe" ? def.in : def.innerType;
  }
  const type = current._zod.def.type;
  if (type === "object") {
    return { ...field, type: "object", fields: fieldsOf(current, rules, prefix) };
  }
  if (type === "array" || type === "boolean" || type === "number") return { ...field, type };
  if (type === "literal") {
    return { ...field, type: typeof current._zod.def.values[0] === "number" ? "number" : "string" };
  }
  if (type === "union") return { ...field, ...fieldOf(current._zod.def.options[0], rules, prefix) };
  return { ...field, type: "string" };
}

/**
 * Business purchases need a tax ID, so the base request's is required; a postal code is at most
 * 20 characters, fewer than the markup sample has.
 */
const demoPayFields = fieldsOf(demoPaySchema, {
  taxId: { optional: undefined, nullable: undefined },
  "address.zipCode": { freeText: undefined },
});

const demoPayBody = {
  cardNumber: "4242 4242 4242 4242",
  email: "ann@example.com",
  name: "Ann Lee",
  address: US_ADDRESS,
  businessPurchase: true,
  taxId: "DE123456789",
  promoCode: "LATEDELIVERY",
};

const DECLINE = {
  why: "an invalid card is a failed payment (402), recorded on the order for the shopper",
  prefix: "orders",
};

const FAILED_SIGN_IN = {
  why: "a wrong password is a failed sign-in, recorded in the audit log",
  prefix: "audit",
};

/** A staff member invited (not yet joined) for the staff routes' cases; answers their id. */
async function invitedMember(t: TestApp, cookie: string, n: number): Promise<string> {
  const res = await t.request("/api/admin/staff", {
    method: "POST",
    body: { email: `helper${n}@example.com`, role: "staff" },
    headers: { Cookie: cookie },
  });
  assert.equal(res.status, 201, res.text);
  return res.json.id;
}

const demoPayTable: Pick<Route, "accepts" | "writes"> = {
  accepts: {
    "body businessPurchase: missing": "not a business purchase: the tax ID is not used",
    "body businessPurchase: null": "not a business purchase: the tax ID is not used",
  },
  writes: {
    "body cardNumber: control and RTL characters": DECLINE,
    "body cardNumber: markup": DECLINE,
  },
};

const switchPicks = SWITCHES.filter((s) => s.initialStock > 20).slice(0, 10)
  .map((s) => ({ id: s.id }));

function picks(label: string, switches: unknown): Mutation {
  return {
    label: `body switches: ${label}`,
    build: (r, base) => jsonBody(r, base, { ...base.body, switches }),
  };
}

const withCookie = (ctx: GroupContext) => ({ Cookie: ctx.cookie as string });

/** The owner's promo and notice bodies refuse unknown fields (400), so a typo is not lost. */
const STRICT_BODY = { "body: extra fields": 400, "body: prototype keys": 400 };

/** A passkey's answer of the right outline that names no passkey and no challenge of the shop. */
const FORGED_PASSKEY = {
  id: "AAAA",
  rawId: "AAAA",
  type: "public-key",
  response: { clientDataJSON: btoa('{"challenge":"never-given"}'), attestationObject: "AAAA" },
  clientExtensionResults: {},
};

/**
 * The cases a real passkey's answer would pass, refused here with the forged one (401: unknown
 * passkey or challenge).
 */
function passkeyRefusals(field: string): Record<string, number> {
  return {
    "body: extra fields": 401,
    "body: prototype keys": 401,
    [`body ${field}.clientExtensionResults: missing`]: 401,
    "query: unexpected parameters": 401,
    "query: 100 KB query string": 401,
  };
}

/** Gives the owner an authenticator app (straight into the store) unless it has one. */
async function withTotp(ctx: GroupContext): Promise<void> {
  ctx.secret ??= newTotpSecret();
  await changeFactors(ctx.t.kv, "owner", (f) => {
    f.totp ??= { secret: ctx.secret as string, addedAt: ctx.t.clock.now() };
    // The step used by the last case is forgotten, so the same code works for this one (the
    // clock stands still: moving it would renew the admin session, a write of its own).
    delete f.lastTotpStep;
  });
}

/** Takes the owner's authenticator app away (straight from the store). */
async function withoutTotp(ctx: GroupContext): Promise<void> {
  await changeFactors(ctx.t.kv, "owner", (f) => {
    delete f.totp;
  });
}

/** The challenge of a sign-in whose password was right, the owner having an authenticator app. */
async function secondFactorChallenge(ctx: GroupContext): Promise<string> {
  await withTotp(ctx);
  const res = await ctx.t.request("/api/admin/verify", {
    method: "POST",
    body: { password: TEST_ADMIN_PASSWORD },
  });
  assert.equal(res.status, 200, res.text);
  return res.json.secondFactor.challenge;
}

/** A valid switch body of the owner's catalogue (a name is added per case). */
const SWITCH_FIELDS = {
  brand: "Gateron",
  type: "linear",
  force: "55g",
  extraPrice: 0.1,
  referralLink: "https://example.com/switch",
  stock: 5,
};

/** A switch in no pack, which the owner may retire. */
const UNPACKED_SWITCH = SWITCHES.find((s) => !PACKS.some((p) => p.switchIds.includes(s.id)))!;

/**
 * Valid terms of a promo code. Without percentOff (or with null), a code has no discount: a
 * creation is refused, and so is an edit that clears it.
 */
const PROMO_TERMS = {
  percentOff: 10,
  startsAt: "2026-12-01",
  endsAt: "2026-12-31T23:59:59Z",
  maxUses: 100,
  maxUsesPerEmail: 2,
  minSubtotal: 20,
  active: true,
};

/** Calls off every drop of the first pack still on, so the next case may schedule one. */
async function noPackDrop(ctx: GroupContext): Promise<void> {
  const list = await ctx.t.request("/api/admin/drops", { headers: withCookie(ctx) });
  for (const drop of list.json as { id: string; target: { kind: string }; phase: string }[]) {
    if (drop.target.kind !== "pack" || drop.phase === "cancelled") continue;
    await ctx.t.request(`/api/admin/drops/${drop.id}`, {
      method: "DELETE",
      headers: withCookie(ctx),
    });
  }
}

/**
 * A valid drop of a pack, ten minutes ahead: one without the group's dropped switch (a pack
 * holding it would be part of two drops, refused).
 */
function packDropBody(ctx: GroupContext): Json {
  return {
    target: { kind: "pack", id: PACKS.find((p) => !p.switchIds.includes(SWITCHES[0].id))!.id },
    units: 1,
    opensAt: new Date(ctx.t.clock.now() + 10 * 60_000).toISOString(),
    perPersonLimit: 1,
  };
}

/** A working opening-mail confirmation link's token, for a new mailbox each time. */
async function dropConfirmToken(ctx: GroupContext): Promise<string> {
  const email = `drop-confirm${++confirmations}@example.com`;
  const res = await ctx.t.request(`/api/drops/${ctx.dropId}/notify`, {
    method: "POST",
    body: { email },
  });
  assert.equal(res.status, 200, res.text);
  const mail = (await listOutbox(ctx.t.kv)).find((e) => e.email.to === email)!;
  return /confirm\?token=([A-Za-z0-9_-]+)/.exec(mail.email.text)![1];
}

/** Query cases whose cart is well formed but not the place's: refused as transferred. */
const TRANSFERRED_LABELS = [
  "query cartId: missing",
  ...["-1", "1.5", "1e308", "NaN", "Infinity", "1e3", "control and RTL", "markup"].map((v) =>
    `query cartId: ${v}`
  ),
];

/** A place presented by someone other than its holder is refused and counted for the owner. */
const TRANSFERRED_WRITE = {
  why: "a place shown by another holder is counted for the owner",
  prefix: "drop_refused",
};

const GROUPS: Group[] = [
  {
    name: "catalogue, health and images",
    // A stand-in for the built client, so paths that leave the API answer a page, and a running
    // job runner, so /api/ready answers 200 (its 503s are health_test.ts's).
    options: { env: { DIST_DIR: await fakeDist() }, queue: { running: () => true } },
    routes: [
      ...[
        "/api/health",
        "/api/ready",
        "/api/switches",
        "/api/products",
        "/api/packs",
        "/api/payments/config",
      ]
        .map((
          path,
        ): Route => ({ method: "GET", path, base: () => ({}), body: NO_BODY })),
      {
        method: "GET",
        path: "/api/packs/:slug",
        base: () => ({ params: { slug: STARTER.slug } }),
        body: NO_BODY,
      },
      {
        method: "GET",
        path: "/api/testers/:id/availability",
        base: () => ({ params: { id: String(STARTER.id) } }),
        body: NO_BODY,
      },
      {
        method: "GET",
        path: "/api/items/:id/availability",
        base: () => ({ params: { id: "1" } }),
        body: NO_BODY,
      },
      {
        method: "GET",
        path: "/images/build.png",
        base: () => ({ query: { size: "15", keycaps: "none", body: "white", switches: "1,2,3" } }),
        query: Object.fromEntries(
          ["size", "keycaps", "body", "switches", "kind"].map((name): [string, Field] => [
            name,
            { type: "string", optional: true },
          ]),
        ),
        body: NO_BODY,
        // A link's parts that cannot be used are dropped (the configurator says so): still a picture.
        accepts: Object.fromEntries(
          ["size", "keycaps", "body", "switches", "kind"].flatMap((name) =>
            [
              ...QUERY_VALUES.filter(([label]) => label !== "100 KB value").map(([label]) => label),
              "repeated",
            ].map((label) => [
              `query ${name}: ${label}`,
              "an unusable part of a build link is dropped (the first of a repeated one is read)",
            ])
          ),
        ),
        textErrors: "an image, not the JSON API: an unknown image is a plain-text 404",
      },
      {
        method: "GET",
        path: "/images/previews/:file",
        base: () => ({ params: { file: "starter-pack.png" } }),
        body: NO_BODY,
        textErrors: "a path that normalises out of /images/previews (or names no file) reaches " +
          "the generated images, whose miss is a plain-text 404",
      },
      {
        method: "GET",
        path: "/images/*",
        base: () => ({ params: { "*": "switches/akko-cream-blue-transparent.svg" } }),
        body: NO_BODY,
        textErrors: "generated images, not the JSON API: a miss is a plain-text 404",
        accepts: {
          "param *: ..": "URL normalisation turns /images/.. into /, the shop's home page",
          "param *: %2e%2e": "URL normalisation turns /images/%2e%2e into /, the home page",
        },
      },
    ],
  },
  {
    name: "cart",
    setup: async (t) => ({ cartId: await newPackCart(t) }),
    routes: [
      {
        method: "POST",
        path: "/api/cart/add",
        base: () => ({ query: { itemId: String(STARTER.id), quantity: "1" } }),
        query: fieldsOf(simpleAddSchema),
        body: IGNORED_BODY,
        accepts: {
          "query quantity: missing": "quantity defaults to 1",
          "query cartId: missing": "no cart yet: a new one is made",
          "query cartId: empty": "no cart yet: a new one is made",
        },
      },
      {
        method: "POST",
        path: "/api/cart/add/tester",
        base: () => ({
          body: {
            name: "Custom Switch Tester",
            size: 10,
            keycaps: "none",
            switches: switchPicks,
            quantity: 1,
            bodyColor: "white",
          },
        }),
        body: { kind: "json", fields: fieldsOf(testerAddSchema) },
        extra: [
          picks("duplicate ids", Array(10).fill(switchPicks[0])),
          picks("id -1", [{ id: -1 }, ...switchPicks.slice(1)]),
          picks("id 1.5", [{ id: 1.5 }, ...switchPicks.slice(1)]),
          picks("id 1e308", [{ id: 1e308 }, ...switchPicks.slice(1)]),
          picks('id "NaN"', [{ id: "NaN" }, ...switchPicks.slice(1)]),
          picks("unknown id", [{ id: 999_999 }, ...switchPicks.slice(1)]),
          picks("one switch twice", [
            { id: switchPicks[0].id, quantity: 2 },
            ...switchPicks.slice(1),
          ]),
          picks("markup element", [MARKUP, ...switchPicks.slice(1)]),
          picks("too few", switchPicks.slice(1)),
        ],
      },
      {
        method: "GET",
        path: "/api/cart/:cartId",
        base: (ctx) => ({ params: { cartId: ctx.cartId as string } }),
        body: NO_BODY,
      },
      {
        method: "DELETE",
        path: "/api/cart/:cartId/items/:itemId",
        fresh: true,
        base: async (ctx) => ({
          params: { cartId: await newPackCart(ctx.t), itemId: `${STARTER.id}` },
        }),
        body: IGNORED_BODY,
      },
      {
        method: "PUT",
        path: "/api/cart/:cartId/items/:itemId",
        fresh: true,
        base: async (ctx) => ({
          params: { cartId: await newPackCart(ctx.t), itemId: `${STARTER.id}` },
          query: { quantity: "2" },
        }),
        query: fieldsOf(quantityUpdateSchema),
        body: IGNORED_BODY,
        accepts: { "query quantity: -1": "0 or less removes the line (see cart_test.ts)" },
      },
    ],
  },
  {
    name: "contact",
    routes: [{
      method: "POST",
      path: "/api/sendMessage",
      base: () => ({
        body: {
          topic: "Order question",
          message: "Where is my tester?",
          userEmail: "ann@example.com",
          name: "Ann",
        },
      }),
      body: { kind: "json", fields: fieldsOf(contactSchema) },
    }],
  },
  {
    name: "checkout, orders and promo codes",
    setup: async (t) => {
      await plentyOfStock(t);
      return { cartId: await newPackCart(t), ...(await startHostedCheckout(t)) };
    },
    routes: [
      {
        method: "POST",
        path: "/api/cart/:cartId/checkout/:region",
        base: (ctx) => ({ params: { cartId: ctx.cartId as string, region: "us" } }),
        body: IGNORED_BODY,
      },
      {
        method: "POST",
        path: "/api/orders/create",
        base: (ctx) => ({
          body: {
            cartId: ctx.cartId,
            email: "bo@example.com",
            customerName: "Bo Smith",
            shippingAddress: US_ADDRESS,
            promoCode: "LATEDELIVERY",
          },
        }),
        body: { kind: "json", fields: fieldsOf(orderCreateSchema) },
      },
      {
        method: "POST",
        path: "/api/promo/validate",
        base: (ctx) => ({ body: { code: "LATEDELIVERY", cartId: ctx.cartId } }),
        body: { kind: "json", fields: fieldsOf(promoValidateSchema) },
        accepts: {
          "body cartId: control and RTL characters": "an unknown cart prices as an empty one",
          "body cartId: markup": "an unknown cart prices as an empty one",
        },
      },
      {
        method: "GET",
        path: "/api/orders/session/:sessionId",
        base: (ctx) => ({ params: { sessionId: ctx.sessionId as string } }),
        body: NO_BODY,
      },
      {
        method: "GET",
        path: "/api/orders/:orderNumber",
        base: (ctx) => ({ params: { orderNumber: ctx.orderNumber as string } }),
        body: NO_BODY,
      },
      {
        method: "POST",
        path: "/api/orders/:orderNumber/cancel",
        fresh: true,
        base: async (ctx) => ({
          params: { orderNumber: (await paidOrder(ctx.t)).orderNumber },
          body: { email: "ann@example.com" },
        }),
        body: { kind: "json", fields: fieldsOf(customerCancelSchema) },
        statuses: {
          "body email: missing": 404,
          "body: {}": 404,
        },
      },
      {
        method: "POST",
        path: "/api/orders/:orderNumber/extend-hold",
        fresh: true,
        base: async (ctx) => {
          // Each case holds stock from an address of its own: one client may hold only a few.
          const cartId = await newPackCart(ctx.t);
          const started = await ctx.t.request(`/api/cart/${cartId}/checkout/us`, {
            method: "POST",
            client: `127.0.${Math.floor(++extendClients / 250)}.${1 + extendClients % 250}`,
          });
          return {
            params: { orderNumber: started.json.orderNumber },
            body: { paymentId: sessionIdOf(started.json.url) },
          };
        },
        body: { kind: "json", fields: fieldsOf(extendHoldSchema) },
      },
      {
        method: "GET",
        path: "/api/build-stock",
        base: (ctx) => ({ query: { cartId: ctx.cartId as string } }),
        query: { cartId: { type: "string", optional: true } },
        body: NO_BODY,
        accepts: {
          "query cartId: empty": "no cart: nothing counted as the cart's",
          "query cartId: -1": "an unknown cart uses nothing",
          "query cartId: 1.5": "an unknown cart uses nothing",
          "query cartId: 1e308": "an unknown cart uses nothing",
          "query cartId: NaN": "an unknown cart uses nothing",
          "query cartId: Infinity": "an unknown cart uses nothing",
          "query cartId: 1e3": "an unknown cart uses nothing",
          "query cartId: control and RTL": "an unknown cart uses nothing",
          "query cartId: markup": "an unknown cart uses nothing",
        },
      },
      {
        method: "POST",
        path: "/api/stock-alerts",
        base: () => ({ body: { email: "cy@example.com", switchId: STARTER.switchIds[0] } }),
        body: { kind: "json", fields: fieldsOf(stockAlertSchema) },
        // One of switchId and productId is needed: without switchId the body names nothing.
        statuses: { "body switchId: missing": 400 },
      },
      {
        method: "GET",
        path: "/stock-alerts/unsubscribe",
        base: () => ({ query: { token: "abcdefghijklmnopqrstuvwx" } }),
        query: fieldsOf(unsubscribeQuerySchema),
        body: NO_BODY,
      },
      {
        method: "POST",
        path: "/stock-alerts/unsubscribe",
        base: () => ({ query: { token: "abcdefghijklmnopqrstuvwx" } }),
        query: fieldsOf(unsubscribeQuerySchema),
        body: IGNORED_BODY,
      },
      {
        method: "GET",
        path: "/stock-alerts/confirm",
        fresh: true,
        base: async (ctx) => ({ query: { token: await confirmationToken(ctx.t) } }),
        query: fieldsOf(stockAlertConfirmQuerySchema),
        body: NO_BODY,
      },
      {
        method: "POST",
        path: "/stock-alerts/confirm",
        fresh: true,
        base: async (ctx) => ({ query: { token: await confirmationToken(ctx.t) } }),
        query: fieldsOf(stockAlertConfirmQuerySchema),
        body: IGNORED_BODY,
      },
    ],
  },
  {
    name: "demo payments",
    // Every case starts a fresh checkout from one client: holds are not what this suite tests.
    options: { env: { MAX_HOLDS_PER_CLIENT: "500", MAX_HELD_UNITS_PER_CLIENT: "100000" } },
    setup: async (t) => {
      await plentyOfStock(t);
      return await startHostedCheckout(t);
    },
    routes: [
      {
        method: "GET",
        path: "/api/demo/checkout-sessions/:id",
        base: (ctx) => ({ params: { id: ctx.sessionId as string } }),
        body: NO_BODY,
      },
      {
        method: "POST",
        path: "/api/demo/checkout-sessions/:id/pay",
        fresh: true,
        base: async (ctx) => ({
          params: { id: (await startHostedCheckout(ctx.t)).sessionId },
          body: demoPayBody,
        }),
        body: { kind: "json", fields: demoPayFields },
        ...demoPayTable,
      },
      {
        method: "POST",
        path: "/api/demo/payment-intents/:id/confirm",
        fresh: true,
        base: async (ctx) => ({ params: { id: await embeddedIntent(ctx.t) }, body: demoPayBody }),
        body: { kind: "json", fields: demoPayFields },
        ...demoPayTable,
      },
    ],
  },
  {
    name: "admin",
    setup: async (t) => {
      await plentyOfStock(t);
      return { cookie: await adminCookie(t) };
    },
    routes: [
      {
        method: "POST",
        path: "/api/admin/verify",
        base: () => ({ body: { password: TEST_ADMIN_PASSWORD } }),
        body: { kind: "json", fields: fieldsOf(adminVerifySchema) },
        writes: {
          "body password: control and RTL characters": FAILED_SIGN_IN,
          "body password: markup": FAILED_SIGN_IN,
        },
      },
      {
        method: "POST",
        path: "/api/admin/logout",
        fresh: true,
        base: async (ctx) => ({ headers: { Cookie: await adminCookie(ctx.t) } }),
        body: IGNORED_BODY,
      },
      {
        method: "GET",
        path: "/api/admin/session",
        base: (ctx) => ({ headers: withCookie(ctx) }),
        body: NO_BODY,
      },
      {
        method: "GET",
        path: "/api/admin/orders",
        base: (ctx) => ({
          headers: withCookie(ctx),
          query: { status: "all", q: "st", from: "2026-01-01", to: "2026-12-31", limit: "50" },
        }),
        query: fieldsOf(adminOrdersQuerySchema),
        body: NO_BODY,
        accepts: {
          ...searchAccepts("q"),
          "query cursor: empty": "an empty cursor is the first page",
        },
      },
      {
        method: "GET",
        path: "/api/admin/orders/new/csv",
        base: (ctx) => ({
          headers: withCookie(ctx),
          query: { from: "2026-01-01", to: "2026-12-31" },
        }),
        query: fieldsOf(ordersCsvQuerySchema),
        body: NO_BODY,
      },
      {
        method: "GET",
        path: "/api/admin/sales",
        base: (ctx) => ({
          headers: withCookie(ctx),
          query: { from: "2026-11-01", to: "2026-11-30" },
        }),
        query: fieldsOf(salesQuerySchema),
        body: NO_BODY,
      },
      {
        method: "GET",
        path: "/api/admin/pick-list",
        base: (ctx) => ({ headers: withCookie(ctx) }),
        body: NO_BODY,
      },
      {
        method: "GET",
        path: "/api/admin/restock",
        base: (ctx) => ({ headers: withCookie(ctx) }),
        body: NO_BODY,
      },
      {
        method: "GET",
        path: "/api/admin/emails",
        base: (ctx) => ({
          headers: withCookie(ctx),
          query: { to: "ann@example.com", limit: "10" },
        }),
        query: fieldsOf(adminEmailsQuerySchema),
        body: NO_BODY,
        accepts: searchAccepts("to"),
      },
      {
        method: "GET",
        path: "/api/admin/audit",
        base: (ctx) => ({
          headers: withCookie(ctx),
          query: { actor: "owner", kind: "orders", limit: "10" },
        }),
        query: fieldsOf(auditQuerySchema),
        body: NO_BODY,
        accepts: searchAccepts("actor"),
      },
      {
        method: "GET",
        path: "/api/admin/audit.csv",
        base: (ctx) => ({
          headers: withCookie(ctx),
          query: { actor: "owner", kind: "orders", limit: "10" },
        }),
        query: fieldsOf(auditCsvQuerySchema),
        body: NO_BODY,
        accepts: searchAccepts("actor"),
      },
      {
        method: "GET",
        path: "/api/admin/audit/actors",
        base: (ctx) => ({ headers: withCookie(ctx) }),
        body: NO_BODY,
      },
      {
        method: "GET",
        path: "/api/admin/emails/health",
        base: (ctx) => ({ headers: withCookie(ctx) }),
        body: NO_BODY,
      },
      {
        method: "POST",
        path: "/api/admin/emails/:id/resend",
        base: async (ctx) => {
          await paidOrder(ctx.t);
          const [first] = await listOutbox(ctx.t.kv);
          return { params: { id: first.id }, headers: withCookie(ctx) };
        },
        body: IGNORED_BODY,
      },
      {
        method: "POST",
        path: "/api/admin/orders/ship-processed",
        base: (ctx) => ({ headers: withCookie(ctx), body: { orderNumbers: ["ST00000000"] } }),
        body: { kind: "json", fields: fieldsOf(shipChosenSchema), optional: true },
        accepts: {
          "body: empty": "no body ships every ready order (the spec's call)",
          "body: {}": "no chosen set ships every ready order (the spec's call)",
        },
      },
      {
        method: "POST",
        path: "/api/admin/orders/:orderNumber/tracking",
        fresh: true,
        base: async (ctx) => ({
          params: { orderNumber: (await paidOrder(ctx.t)).orderNumber },
          headers: withCookie(ctx),
          body: { trackingNumber: "9400 1000 0000 0000 0001" },
        }),
        body: { kind: "json", fields: fieldsOf(trackingSchema) },
      },
      {
        method: "POST",
        path: "/api/admin/orders/:orderNumber/delivered",
        fresh: true,
        base: async (ctx) => ({
          params: { orderNumber: await shippedOrder(ctx.t, ctx.cookie as string) },
          headers: withCookie(ctx),
        }),
        body: IGNORED_BODY,
      },
      {
        method: "POST",
        path: "/api/admin/orders/:orderNumber/cancel",
        fresh: true,
        base: async (ctx) => ({
          params: { orderNumber: (await paidOrder(ctx.t)).orderNumber },
          headers: withCookie(ctx),
        }),
        body: IGNORED_BODY,
      },
      {
        method: "GET",
        path: "/api/admin/inventory",
        base: (ctx) => ({ headers: withCookie(ctx) }),
        body: NO_BODY,
      },
      {
        method: "PUT",
        path: "/api/admin/inventory/switches/:id",
        base: (ctx) => ({
          params: { id: String(SWITCHES[0].id) },
          headers: withCookie(ctx),
          body: { stock: 50, lowStockAt: 10 },
        }),
        body: { kind: "json", fields: fieldsOf(stockUpdateSchema) },
      },
      {
        method: "PUT",
        path: "/api/admin/inventory/components/:name",
        base: (ctx) => ({
          params: { name: "SMALL_BOX" },
          headers: withCookie(ctx),
          body: { stock: 500, lowStockAt: 10 },
        }),
        body: { kind: "json", fields: fieldsOf(stockUpdateSchema) },
      },
      ...["/api/test/ping", "/api/test/test_email"].map((path): Route => ({
        method: "GET",
        path,
        base: (ctx) => ({ headers: withCookie(ctx) }),
        body: NO_BODY,
      })),
    ],
  },
  {
    name: "second factors",
    setup: async (t) => ({ cookie: await adminCookie(t), passkeys: 0 }),
    routes: [
      {
        method: "POST",
        path: "/api/admin/verify/second-factor/options",
        fresh: true,
        base: async (ctx) => ({ body: { challenge: await secondFactorChallenge(ctx) } }),
        body: { kind: "json", fields: fieldsOf(secondStepOptionsSchema) },
      },
      {
        method: "POST",
        path: "/api/admin/verify/second-factor",
        // Each accepted case signs in, spending its challenge and its code's step.
        fresh: true,
        base: async (ctx) => {
          const challenge = await secondFactorChallenge(ctx);
          return { body: { challenge, code: totpCode(ctx.secret as string, ctx.t.clock.now()) } };
        },
        body: { kind: "json", fields: fieldsOf(secondStepSchema) },
      },
      {
        method: "POST",
        path: "/api/admin/passkey-sign-in/options",
        base: () => ({}),
        body: IGNORED_BODY,
      },
      {
        method: "POST",
        path: "/api/admin/passkey-sign-in",
        // No browser here to make a real assertion: the base names an unknown passkey, so even
        // the cases a real one would pass are refused, before anything is written.
        base: () => ({ body: { passkey: FORGED_PASSKEY } }),
        body: { kind: "json", fields: fieldsOf(passkeySignInSchema) },
        statuses: passkeyRefusals("passkey"),
      },
      {
        method: "GET",
        path: "/api/admin/factors",
        base: (ctx) => ({ headers: withCookie(ctx) }),
        body: NO_BODY,
      },
      {
        method: "POST",
        path: "/api/admin/factors/totp",
        fresh: true,
        base: async (ctx) => {
          await withoutTotp(ctx);
          return { headers: withCookie(ctx) };
        },
        body: IGNORED_BODY,
      },
      {
        method: "POST",
        path: "/api/admin/factors/totp/confirm",
        fresh: true,
        base: async (ctx) => {
          await withoutTotp(ctx);
          const setup = await ctx.t.request("/api/admin/factors/totp", {
            method: "POST",
            headers: withCookie(ctx),
          });
          assert.equal(setup.status, 200, setup.text);
          const code = totpCode(setup.json.secret, ctx.t.clock.now());
          return { headers: withCookie(ctx), body: { code } };
        },
        body: { kind: "json", fields: fieldsOf(totpCodeSchema) },
      },
      {
        method: "DELETE",
        path: "/api/admin/factors/totp",
        fresh: true,
        base: async (ctx) => {
          await withTotp(ctx);
          const code = totpCode(ctx.secret as string, ctx.t.clock.now());
          return { headers: withCookie(ctx), body: { code } };
        },
        body: { kind: "json", fields: fieldsOf(totpCodeSchema) },
      },
      {
        method: "POST",
        path: "/api/admin/factors/recovery-codes",
        fresh: true,
        base: async (ctx) => {
          await withTotp(ctx);
          return { headers: withCookie(ctx) };
        },
        body: IGNORED_BODY,
      },
      {
        method: "POST",
        path: "/api/admin/factors/passkeys/options",
        base: (ctx) => ({ headers: withCookie(ctx) }),
        body: IGNORED_BODY,
      },
      {
        method: "POST",
        path: "/api/admin/factors/passkeys",
        // As for the passkey sign-in: the answer names a challenge the shop never gave.
        base: (ctx) => ({
          headers: withCookie(ctx),
          body: { name: "Laptop", response: FORGED_PASSKEY },
        }),
        body: { kind: "json", fields: fieldsOf(addPasskeySchema) },
        statuses: passkeyRefusals("response"),
      },
      {
        method: "DELETE",
        path: "/api/admin/factors/passkeys/:id",
        // Each accepted case removes its passkey: a new one (written to the store) for each.
        fresh: true,
        base: async (ctx) => {
          const id = `passkey-${(ctx.passkeys = Number(ctx.passkeys) + 1)}`;
          await changeFactors(ctx.t.kv, "owner", (f) => {
            f.passkeys.push({ id, name: id, publicKey: "AA", counter: 0, addedAt: 0 });
          });
          return { params: { id }, headers: withCookie(ctx) };
        },
        body: NO_BODY,
      },
      {
        method: "GET",
        path: "/api/admin/settings/security",
        base: (ctx) => ({ headers: withCookie(ctx) }),
        body: NO_BODY,
      },
      {
        method: "PUT",
        path: "/api/admin/settings/security",
        base: (ctx) => ({ headers: withCookie(ctx), body: { requireStaffSecondFactor: true } }),
        body: { kind: "json", fields: fieldsOf(securitySettingsSchema) },
      },
    ],
  },
  {
    name: "promo codes and the notice",
    setup: async (t) => ({ cookie: await adminCookie(t) }),
    routes: [
      { method: "GET", path: "/api/notice", base: () => ({}), body: NO_BODY },
      ...["/api/admin/notice", "/api/admin/promos"].map((path): Route => ({
        method: "GET",
        path,
        base: (ctx) => ({ headers: withCookie(ctx) }),
        body: NO_BODY,
      })),
      {
        method: "PUT",
        path: "/api/admin/notice",
        base: (ctx) => ({ headers: withCookie(ctx), body: { text: "Ships Monday", active: true } }),
        body: { kind: "json", fields: fieldsOf(noticeSchema) },
        statuses: STRICT_BODY,
      },
      {
        method: "POST",
        path: "/api/admin/promos",
        // Each accepted case creates a code, so every case names a new one.
        fresh: true,
        base: (ctx) => ({
          headers: withCookie(ctx),
          body: { ...PROMO_TERMS, code: `HOSTILE${(ctx.promos = Number(ctx.promos ?? 0) + 1)}` },
        }),
        body: { kind: "json", fields: fieldsOf(promoCreateSchema) },
        accepts: { "body minSubtotal: 1.5": "a minimum of $1.50" },
        statuses: {
          ...STRICT_BODY,
          "body percentOff: missing": 400,
          "body percentOff: null": 400,
        },
      },
      {
        method: "PATCH",
        path: "/api/admin/promos/:code",
        base: (ctx) => ({
          params: { code: "LATEDELIVERY" },
          headers: withCookie(ctx),
          body: PROMO_TERMS,
        }),
        body: { kind: "json", fields: fieldsOf(promoUpdateSchema) },
        accepts: {
          "body: {}": "an edit may change nothing: it answers the code as it is",
          "body minSubtotal: 1.5": "a minimum of $1.50",
        },
        statuses: { ...STRICT_BODY, "body percentOff: null": 400 },
      },
    ],
  },
  {
    name: "staff and sessions",
    setup: async (t) => ({ cookie: await adminCookie(t) }),
    routes: [
      {
        method: "GET",
        path: "/api/admin/staff",
        base: (ctx) => ({ headers: withCookie(ctx) }),
        body: NO_BODY,
      },
      {
        method: "POST",
        path: "/api/admin/staff",
        // Each accepted case invites someone, so every case names a new email.
        fresh: true,
        base: (ctx) => ({
          headers: withCookie(ctx),
          body: {
            email: `invitee${(ctx.invites = Number(ctx.invites ?? 0) + 1)}@example.com`,
            role: "staff",
          },
        }),
        body: { kind: "json", fields: fieldsOf(staffInviteSchema) },
      },
      {
        method: "PATCH",
        path: "/api/admin/staff/:id",
        fresh: true,
        base: async (ctx) => ({
          params: {
            id: await invitedMember(
              ctx.t,
              String(ctx.cookie),
              ctx.members = Number(ctx.members ?? 0) + 1,
            ),
          },
          headers: withCookie(ctx),
          body: { role: "owner" },
        }),
        body: { kind: "json", fields: fieldsOf(staffRoleSchema) },
      },
      {
        method: "DELETE",
        path: "/api/admin/staff/:id",
        fresh: true,
        base: async (ctx) => ({
          params: {
            id: await invitedMember(
              ctx.t,
              String(ctx.cookie),
              ctx.members = Number(ctx.members ?? 0) + 1,
            ),
          },
          headers: withCookie(ctx),
        }),
        body: IGNORED_BODY,
      },
      {
        method: "GET",
        path: "/api/admin/sessions",
        base: (ctx) => ({ headers: withCookie(ctx), query: { all: "1" } }),
        query: fieldsOf(adminSessionsQuerySchema),
        body: NO_BODY,
      },
      {
        method: "DELETE",
        path: "/api/admin/sessions/:id",
        fresh: true,
        base: async (ctx) => {
          // A session of its own each time: an accepted case ends it.
          const cookie = await adminCookie(ctx.t);
          const mine = await ctx.t.request("/api/admin/sessions", { headers: { Cookie: cookie } });
          const current = mine.json.find((x: { current: boolean }) => x.current);
          return { params: { id: current.id }, headers: { Cookie: cookie } };
        },
        body: IGNORED_BODY,
      },
      {
        method: "POST",
        path: "/api/admin/invite/accept",
        fresh: true,
        base: async (ctx) => {
          const n = (ctx.members = Number(ctx.members ?? 0) + 1);
          await invitedMember(ctx.t, String(ctx.cookie), n);
          const mail = (await listOutbox(ctx.t.kv))
            .find((e) => e.email.to === `helper${n}@example.com`)!;
          const token = /\/admin\?token=([A-Za-z0-9_-]+)/.exec(mail.email.text)![1];
          return { body: { token, password: "PrintDay2026" } };
        },
        body: { kind: "json", fields: fieldsOf(inviteAcceptSchema) },
      },
    ],
  },
  {
    name: "the owner's catalogue",
    setup: async (t) => ({ cookie: await adminCookie(t) }),
    routes: [
      ...["switches", "packs", "items", "history"].map((kind): Route => ({
        method: "GET",
        path: `/api/admin/catalog/${kind}`,
        base: (ctx) => ({ headers: withCookie(ctx) }),
        body: NO_BODY,
      })),
      {
        method: "POST",
        path: "/api/admin/catalog/switches",
        // Each accepted case adds a switch, so every case names a new one.
        fresh: true,
        base: (ctx) => ({
          headers: withCookie(ctx),
          body: {
            ...SWITCH_FIELDS,
            name: `Hostile ${(ctx.switches = Number(ctx.switches ?? 0) + 1)}`,
          },
        }),
        body: { kind: "json", fields: fieldsOf(switchCreateSchema) },
        accepts: { "body extraPrice: 1.5": "an extra price of $1.50" },
        statuses: STRICT_BODY,
      },
      {
        method: "PATCH",
        path: "/api/admin/catalog/switches/:id",
        base: (ctx) => ({
          params: { id: String(UNPACKED_SWITCH.id) },
          headers: withCookie(ctx),
          // Another brand than the POST's: a name the POST gave (markup) is taken.
          body: { ...SWITCH_FIELDS, brand: "Edited", name: "Hostile Edit", retired: false },
        }),
        body: { kind: "json", fields: fieldsOf(switchUpdateSchema) },
        accepts: {
          "body: {}": "an edit may change nothing: it answers the switch as it is",
          "body extraPrice: 1.5": "an extra price of $1.50",
        },
        statuses: STRICT_BODY,
      },
      {
        method: "PATCH",
        path: "/api/admin/catalog/packs/:id",
        base: (ctx) => ({
          params: { id: String(STARTER.id) },
          headers: withCookie(ctx),
          body: {
            title: "Hostile Pack",
            description: "Ten switches.",
            price: 9.99,
            switchIds: STARTER.switchIds,
            onSale: true,
          },
        }),
        body: { kind: "json", fields: fieldsOf(packUpdateSchema) },
        accepts: {
          "body: {}": "an edit may change nothing: it answers the pack as it is",
          "body price: 1.5": "a price of $1.50",
        },
        statuses: STRICT_BODY,
      },
      {
        method: "PATCH",
        path: "/api/admin/catalog/items/:id",
        base: (ctx) => ({
          params: { id: "1" },
          headers: withCookie(ctx),
          body: { name: "Hostile Item", price: 7.99, onSale: true },
        }),
        body: { kind: "json", fields: fieldsOf(itemUpdateSchema) },
        accepts: {
          "body: {}": "an edit may change nothing: it answers the item as it is",
          "body price: 1.5": "a price of $1.50",
        },
        statuses: STRICT_BODY,
      },
      {
        // The body is an image's bytes: none of the cases is a PNG, JPEG or WebP.
        method: "PUT",
        path: "/api/admin/catalog/:kind/:id/image",
        base: (ctx) => ({
          params: { kind: "switches", id: String(UNPACKED_SWITCH.id) },
          headers: withCookie(ctx),
        }),
        body: { kind: "raw" },
      },
      {
        method: "DELETE",
        path: "/api/admin/catalog/:kind/:id/image",
        base: (ctx) => ({
          params: { kind: "items", id: "1" },
          headers: withCookie(ctx),
        }),
        body: IGNORED_BODY,
      },
    ],
  },
  {
    name: "API keys",
    setup: async (t) => ({ cookie: await adminCookie(t) }),
    routes: [
      {
        method: "GET",
        path: "/api/admin/api-keys",
        base: (ctx) => ({ headers: withCookie(ctx) }),
        body: NO_BODY,
      },
      {
        method: "POST",
        path: "/api/admin/api-keys",
        base: (ctx) => ({
          headers: withCookie(ctx),
          body: { name: "Hostile script", role: "staff" },
        }),
        body: { kind: "json", fields: fieldsOf(apiKeyCreateSchema) },
      },
      {
        method: "DELETE",
        path: "/api/admin/api-keys/:id",
        // Each accepted case revokes the key, so every case gets a new one.
        fresh: true,
        base: async (ctx) => {
          const made = await ctx.t.request("/api/admin/api-keys", {
            method: "POST",
            body: { name: "Hostile target", role: "staff" },
            headers: withCookie(ctx),
          });
          return { params: { id: String(made.json.id) }, headers: withCookie(ctx) };
        },
        body: IGNORED_BODY,
      },
    ],
  },
  {
    name: "drops",
    setup: async (t) => {
      await plentyOfStock(t);
      const scheduled = await t.request("/api/admin/drops", {
        method: "POST",
        headers: { Cookie: await adminCookie(t) },
        body: {
          target: { kind: "switch", id: SWITCHES[0].id },
          units: 5,
          opensAt: new Date(t.clock.now() + 150_000).toISOString(),
          perPersonLimit: 2,
        },
      });
      assert.equal(scheduled.status, 201, scheduled.text);
      // Into the waiting room's first window (it opens two minutes before the drop), then a
      // session of that moment, so no case renews it.
      t.clock.advance(60_000);
      const joined = await t.request(`/api/drops/${scheduled.json.id}/join`, { method: "POST" });
      assert.equal(joined.status, 200, joined.text);
      return {
        cookie: await adminCookie(t),
        dropId: scheduled.json.id,
        ticket: joined.json.ticket,
        cartId: joined.json.cartId,
      };
    },
    routes: [
      {
        method: "GET",
        path: "/api/drops/for/:kind/:id",
        base: () => ({ params: { kind: "switch", id: String(SWITCHES[0].id) } }),
        body: NO_BODY,
      },
      {
        method: "GET",
        path: "/api/drops/switches",
        base: () => ({}),
        body: NO_BODY,
      },
      {
        method: "POST",
        path: "/api/drops/:id/join",
        base: (ctx) => ({
          params: { id: ctx.dropId as string },
          body: { cartId: ctx.cartId as string },
        }),
        body: { kind: "json", fields: fieldsOf(dropJoinSchema), optional: true },
        accepts: {
          "body: {}": "no cart: the guest's place gets a new empty cart",
          "body: empty": "no cart: the guest's place gets a new empty cart",
          "body cartId: markup": "a cart that does not exist: the place gets a new empty cart",
          "body cartId: control and RTL characters":
            "a cart that does not exist: the place gets a new empty cart",
        },
        statuses: STRICT_BODY,
      },
      {
        method: "GET",
        path: "/api/drops/:id/tickets/:ticket",
        base: (ctx) => ({
          params: { id: ctx.dropId as string, ticket: ctx.ticket as string },
          query: { cartId: ctx.cartId as string },
        }),
        query: fieldsOf(dropTicketQuerySchema),
        body: NO_BODY,
        statuses: Object.fromEntries(
          TRANSFERRED_LABELS.map((label) => [label, 403]),
        ),
        writes: Object.fromEntries(TRANSFERRED_LABELS.map((label) => [label, TRANSFERRED_WRITE])),
      },
      {
        method: "POST",
        path: "/api/drops/:id/notify",
        base: (ctx) => ({
          params: { id: ctx.dropId as string },
          body: { email: "hostile-notify@example.com" },
        }),
        body: { kind: "json", fields: fieldsOf(dropNotifySchema) },
        statuses: STRICT_BODY,
      },
      {
        method: "GET",
        path: "/drop-alerts/confirm",
        fresh: true,
        base: async (ctx) => ({ query: { token: await dropConfirmToken(ctx) } }),
        query: fieldsOf(stockAlertConfirmQuerySchema),
        body: NO_BODY,
      },
      {
        method: "POST",
        path: "/drop-alerts/confirm",
        fresh: true,
        base: async (ctx) => ({ query: { token: await dropConfirmToken(ctx) } }),
        query: fieldsOf(stockAlertConfirmQuerySchema),
        body: IGNORED_BODY,
      },
      {
        method: "GET",
        path: "/api/admin/drops",
        base: (ctx) => ({ headers: withCookie(ctx) }),
        body: NO_BODY,
      },
      {
        method: "POST",
        path: "/api/admin/drops",
        // Each accepted case schedules the pack's drop, so the one before is called off first.
        fresh: true,
        base: async (ctx) => {
          await noPackDrop(ctx);
          return { headers: withCookie(ctx), body: packDropBody(ctx) };
        },
        body: { kind: "json", fields: fieldsOf(dropScheduleSchema) },
      },
      {
        method: "GET",
        path: "/api/admin/drops/:id",
        base: (ctx) => ({ params: { id: ctx.dropId as string }, headers: withCookie(ctx) }),
        body: NO_BODY,
      },
      {
        method: "DELETE",
        path: "/api/admin/drops/:id",
        // Each accepted case calls the drop off, so every case gets a new one.
        fresh: true,
        base: async (ctx) => {
          await noPackDrop(ctx);
          const made = await ctx.t.request("/api/admin/drops", {
            method: "POST",
            headers: withCookie(ctx),
            body: packDropBody(ctx),
          });
          assert.equal(made.status, 201, made.text);
          return { params: { id: made.json.id }, headers: withCookie(ctx) };
        },
        body: IGNORED_BODY,
      },
    ],
  },
  {
    name: "uploaded images",
    setup: async (t) => {
      const res = await t.request("/api/admin/catalog/items/1/image", {
        method: "PUT",
        body: await pngFile(),
        headers: { Cookie: await adminCookie(t) },
      });
      assert.equal(res.status, 200, res.text);
      return { image: (res.json.imageUrl as string).replace("/images/uploads/", "") };
    },
    routes: [{
      method: "GET",
      path: "/images/uploads/*",
      base: (ctx) => ({ params: { "*": ctx.image as string } }),
      body: NO_BODY,
      textErrors: "a path that normalises out of /images/uploads reaches the generated images, " +
        "whose misses are plain text (every miss of an upload is a JSON 404)",
      accepts: {
        "query: unexpected parameters": "an image reads no query",
        "query: 100 KB query string": "an image reads no query",
      },
    }],
  },
  {
    name: "Stripe webhook in demo mode (404 for everything)",
    routes: [{
      method: "POST",
      path: "/api/webhooks/:provider",
      base: () => ({ params: { provider: "stripe" } }),
      body: { kind: "raw" },
    }],
  },
  {
    name: "Stripe webhook in Stripe mode",
    options: {
      env: {
        STRIPE_SECRET_KEY: "sk_test_x",
        STRIPE_PUBLISHABLE_KEY: "pk_test_x",
        STRIPE_WEBHOOK_SECRET: FAKE_WEBHOOK_SECRET,
      },
      payments: (_kv, clock) =>
        stripePayments({
          secretKey: "sk_test_x",
          publishableKey: "pk_test_x",
          webhookSecret: FAKE_WEBHOOK_SECRET,
          // Nothing may reach Stripe: a refused webhook never calls the API.
          apiUrl: "http://127.0.0.1:9",
          clock,
        }),
    },
    routes: [{
      method: "POST",
      path: "/api/webhooks/:provider",
      base: () => ({ params: { provider: "stripe" } }),
      body: { kind: "raw" },
    }],
  },
  {
    name: "accounts",
    setup: async (t) => {
      const account = { email: "dana@example.com", password: "Sw1tchesRule" };
      const created = await t.request("/auth/register", { method: "POST", body: account });
      assert.equal(created.status, 201, created.text);
      const login = await t.request("/auth/login", { method: "POST", body: account });
      return { ...account, token: login.json.token, cartId: await newPackCart(t) };
    },
    routes: [
      {
        method: "POST",
        path: "/auth/register",
        fresh: true,
        base: () => ({
          body: { email: `u${crypto.randomUUID()}@example.com`, password: "Sw1tchesRule" },
        }),
        body: { kind: "json", fields: fieldsOf(registerSchema) },
        accepts: {
          "body user_id: control and RTL characters": "a malformed id is replaced by a random one",
          "body user_id: markup": "a malformed id is replaced by a random one",
        },
      },
      {
        method: "POST",
        path: "/auth/login",
        base: (ctx) => ({ body: { email: ctx.email, password: ctx.password } }),
        body: { kind: "json", fields: fieldsOf(loginSchema) },
        accepts: {
          "body cartId: control and RTL characters": "an unknown guest cart is not joined",
          "body cartId: markup": "an unknown guest cart is not joined",
        },
      },
      { method: "POST", path: "/auth/logout", base: () => ({}), body: IGNORED_BODY },
      {
        method: "POST",
        path: "/auth/password-reset",
        base: (ctx) => ({ body: { email: ctx.email } }),
        body: { kind: "json", fields: fieldsOf(passwordResetSchema) },
      },
      {
        method: "POST",
        path: "/auth/password-reset/confirm",
        fresh: true,
        base: async (ctx) => {
          // An account of its own: a new password ends the group's shared session.
          const email = `r${crypto.randomUUID()}@example.com`;
          await ctx.t.request("/auth/register", {
            method: "POST",
            body: { email, password: "Sw1tchesRule" },
          });
          await ctx.t.request("/auth/password-reset", { method: "POST", body: { email } });
          const mail = (await listOutbox(ctx.t.kv)).find((e) => e.email.to === email)!;
          const token = /restore-password\?token=(\S+)/.exec(mail.email.text)![1];
          return { body: { token, password: "N3wPassword" } };
        },
        body: { kind: "json", fields: fieldsOf(passwordResetConfirmSchema) },
      },
      {
        method: "DELETE",
        path: "/auth/me",
        fresh: true,
        base: async (ctx) => {
          const account = {
            email: `d${crypto.randomUUID()}@example.com`,
            password: "Sw1tchesRule",
          };
          await ctx.t.request("/auth/register", { method: "POST", body: account });
          const login = await ctx.t.request("/auth/login", { method: "POST", body: account });
          return {
            headers: { Authorization: `Bearer ${login.json.token}` },
            body: { password: account.password },
          };
        },
        body: { kind: "json", fields: fieldsOf(deleteAccountSchema) },
      },
      ...["/auth/me", "/auth/orders", "/auth/me/export"].map((path): Route => ({
        method: "GET",
        path,
        base: (ctx) => ({ headers: { Authorization: `Bearer ${ctx.token}` } }),
        body: NO_BODY,
      })),
      {
        method: "POST",
        path: "/auth/create-payment-intent",
        base: (ctx) => ({
          headers: { Authorization: `Bearer ${ctx.token}` },
          body: {
            cart_data: { cartId: ctx.cartId },
            email: "dana@example.com",
            name: "Dana",
            address: "1 Main St",
            apartment: "2B",
            city: "Austin",
            state: "TX",
            zipcode: "73301",
            promoCode: "LATEDELIVERY",
          },
        }),
        body: { kind: "json", fields: fieldsOf(paymentIntentSchema) },
        accepts: {
          "body: {}": "an empty body asks for the payment config (docs/product.md#checkout-api)",
          "body: empty": "an empty body asks for the payment config (docs/product.md#checkout-api)",
        },
      },
    ],
  },
];

for (const group of GROUPS) {
  Deno.test(`hostile input: ${group.name}`, (t) => runGroup(group, t));
}

// ---------------------------------------------------------------------------------------------
// The table covers every route the server mounts

/**
 * Every `METHOD /path` registered in server/routes/*.ts, under the prefix app.ts mounts it on, and
 * in a payment provider's own routes (server/payments/{name}/routes.ts).
 */
async function routesInSource(): Promise<string[]> {
  const server = new URL("../../server/", import.meta.url);
  const app = await Deno.readTextFile(new URL("app.ts", server));
  const mounts = new Map(
    [...app.matchAll(/app\.route\("([^"]*)",\s*(\w+)\(/g)].map((m) => [m[2], m[1]]),
  );
  const found = new Set<string>();
  const files = [];
  for await (const file of Deno.readDir(new URL("routes/", server))) {
    files.push(`routes/${file.name}`);
  }
  // A payment provider's own routes are mounted by the registry under /api/{its folder}.
  for await (const dir of Deno.readDir(new URL("payments/", server))) {
    const path = `payments/${dir.name}/routes.ts`;
    if (!dir.isDirectory || !(await Deno.stat(new URL(path, server)).catch(() => null))) continue;
    files.push(path);
    const source = await Deno.readTextFile(new URL(path, server));
    const name = /^export function (\w+)/m.exec(source)?.[1];
    if (name) mounts.set(name, `/api/${dir.name}`);
  }
  for (const path of files) {
    const source = await Deno.readTextFile(new URL(path, server));
    for (const part of source.split(/(?=export function )/)) {
      const prefix = mounts.get(/^export function (\w+)/.exec(part)?.[1] ?? "");
      if (prefix === undefined) continue;
      // `for (const kind of ["testers", "items"] as const)` registers one path per value.
      const loops = [...part.matchAll(/for \(const (\w+) of \[([^\]]*)\]/g)]
        .map((m) => [m[1], [...m[2].matchAll(/"([^"]*)"/g)].map((v) => v[1])] as const);
      for (const m of part.matchAll(/\.(get|post|put|delete|patch|all)\(\s*(["`])(\/.*?)\2/g)) {
        let paths = [m[3]];
        for (const [name, values] of loops) {
          const slot = `\${${name}}`;
          paths = paths.flatMap((p) =>
            p.includes(slot) ? values.map((v) => p.replace(slot, v)) : [p]
          );
        }
        for (const p of paths) found.add(`${m[1].toUpperCase()} ${prefix}${p === "/" ? "" : p}`);
      }
    }
  }
  return [...found].sort();
}

Deno.test("hostile input: the table lists every route in server/routes", async () => {
  const table = new Set(GROUPS.flatMap((g) => g.routes.map((r) => `${r.method} ${r.path}`)));
  assert.deepEqual([...table].sort(), await routesInSource(), "add new routes to the table");
  if (tally.cases > 0) {
    console.log(
      `hostile input: ${tally.routes.size} routes, ${tally.cases} cases ` +
        `(${tally.cases - tally.accepted} refused, ${tally.accepted} accepted by design)`,
    );
  }
});

// ---------------------------------------------------------------------------------------------
// Names and addresses with markup are text wherever they are shown

const XSS = "<img src=x onerror=alert(1)>";
const XSS_ESCAPED = "&#60;img src=x onerror=alert(1)&#62;";

/**
 * The API half of "markup renders as text": emails escape it and the CSV keeps it verbatim. The
 * admin dashboard shows these fields as React text (escaped by default); the browser check of that
 * belongs to the e2e suite.
 */
Deno.test("markup in names and addresses: stored as typed, escaped in emails, text in the CSV", async () => {
  await using t = await createTestApp();
  const cookie = await adminCookie(t);
  const tagged = { street: XSS, apartment: XSS, city: XSS, state: XSS };

  const hosted = await startHostedCheckout(t);
  const paid = await payDemo(t, hosted.sessionId, {
    cardNumber: "4242424242424242",
    email: "ann@example.com",
    name: XSS,
    address: { ...tagged, zipCode: "62701", country: "US" },
  });
  assert.equal(paid.status, 200, paid.text);
  const created = await t.request("/api/orders/create", {
    method: "POST",
    body: {
      cartId: await newPackCart(t),
      email: "bo@example.com",
      customerName: XSS,
      shippingAddress: { ...tagged, zipCode: "62701" },
    },
  });
  assert.equal(created.status, 200, created.text);
  const confirmed = await t.request(
    `/api/demo/payment-intents/${created.json.paymentIntentId}/confirm`,
    { method: "POST", body: { cardNumber: "4242424242424242" } },
  );
  assert.equal(confirmed.status, 200, confirmed.text);
  const contact = await t.request("/api/sendMessage", {
    method: "POST",
    body: { topic: XSS, message: XSS, userEmail: "cy@example.com", name: XSS },
  });
  assert.equal(contact.status, 200, contact.text);

  const headers = { Cookie: cookie };
  const orders = await t.request("/api/admin/orders", { headers });
  assert.match(orders.headers.get("content-type") ?? "", /application\/json/);
  assert.equal(orders.json.length, 2);
  for (const order of orders.json) {
    assert.equal(order.customerName, XSS, "kept exactly as typed, for the admin to see");
    assert.deepEqual({ ...order.shippingAddress, zipCode: "", country: "" }, {
      ...tagged,
      zipCode: "",
      country: "",
    });
  }

  const csv = await t.request("/api/admin/orders/new/csv", { headers });
  assert.match(csv.headers.get("content-type") ?? "", /^text\/csv/);
  assert.match(csv.headers.get("content-disposition") ?? "", /^attachment/);
  assert.equal(csv.headers.get("x-content-type-options"), "nosniff");
  const rows = csv.text.trim().split("\r\n").slice(1);
  assert.equal(rows.length, 2);
  for (const row of rows) {
    assert.equal(row.split(`"${XSS}"`).length - 1, 5, "name, street, apartment, city, state");
  }

  const tracked = await t.request(`/api/admin/orders/${hosted.orderNumber}/tracking`, {
    method: "POST",
    body: { trackingNumber: "9400 1000" },
    headers,
  });
  assert.equal(tracked.status, 200, tracked.text);
  await t.request("/api/admin/orders/ship-processed", { method: "POST", headers });
  await t.deliverEmails();
  const sent = t.mailer.sent;
  assert.deepEqual(
    sent.map((e) => e.subject.replace(/ST\w+/, "N").replace(/\$[\d.]+/, "$X")).sort(),
    [
      `Contact: ${XSS}`,
      "New order N: $X",
      "New order N: $X",
      "Switch Tester Shop: order N confirmed",
      "Switch Tester Shop: order N confirmed",
      "Switch Tester Shop: order N has shipped",
      "Switch Tester Shop: we're printing order N",
    ],
  );
  for (const email of sent) {
    assert.ok(!/<img|<script/i.test(email.html), `markup in the html of "${email.subject}"`);
  }
  for (const email of sent.filter((e) => e.subject.endsWith("confirmed"))) {
    assert.ok(email.html.includes(`Hi ${XSS_ESCAPED},`), email.html);
    assert.ok(email.text.includes(`Hi ${XSS},`), "plain text needs no escaping");
  }
  const message = sent.find((e) => e.subject.startsWith("Contact:"))!;
  assert.equal(message.html.split(XSS_ESCAPED).length - 1, 3, "name, subject and message");
});

Deno.test("invisible and text-direction marks in names are a 400 naming the field, nothing stored", async () => {
  await using t = await createTestApp();
  // One checkout, refused each time (a refused payment leaves it open).
  const hosted = await startHostedCheckout(t);
  for (const mark of ["\u200f", "\u061c", "\ufeff", "\u00ad", "\u2066"]) {
    const paid = await payDemo(t, hosted.sessionId, {
      cardNumber: "4242424242424242",
      email: "ann@example.com",
      name: `Ann${mark} Lee`,
      address: { ...US_ADDRESS, city: `Spring${mark}field` },
    });
    assert.equal(paid.status, 400, paid.text);
    assert.match(paid.json.error, /Name cannot contain control characters or invisible/);
    const message = await t.request("/api/sendMessage", {
      method: "POST",
      body: { topic: "Hello", message: "Hi", name: `An${mark}n`, userEmail: "ann@example.com" },
    });
    assert.equal(message.status, 400, message.text);
    assert.match(message.json.error, /Name cannot contain/);
  }
  const orders = await t.request("/api/admin/orders", {
    headers: { Cookie: await adminCookie(t) },
  });
  assert.deepEqual(
    orders.json.map((o: { status: string }) => o.status),
    ["STARTED"],
    "no payment went through",
  );
});
