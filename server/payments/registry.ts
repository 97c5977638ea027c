/**
 * The payment providers the shop can take payments through, each in a folder of its own: one
 * line here each. The first whose settings are in the environment is used; the demo provider
 * needs none, so it is last. Adding a provider is its folder, its line here and its payment form
 * in the browser.
 */
import type { Hono } from "hono";
import type { Clock } from "../clock.ts";
import type { PaymentProvider, PaymentsChoice, ProviderRouteDeps } from "./provider.ts";
import { demoPayments } from "./demo/provider.ts";
import { demoRoutes } from "./demo/routes.ts";
import { STRIPE_CSP, stripePayments, stripeSettings } from "./stripe/provider.ts";

/** Hosts a provider's browser code needs the shop's CSP to allow. */
export interface CspHosts {
  script?: string[];
  frame?: string[];
  img?: string[];
  connect?: string[];
}

/** One provider: how it is chosen, made, shown to the CSP, and what routes it serves itself. */
interface ProviderEntry {
  /** Its settings from the environment; null when they are absent (it is not chosen). */
  settings(env: Record<string, string | undefined>): unknown | null;
  create(settings: unknown, kv: Deno.Kv, clock: Clock): PaymentProvider;
  /** How the start-up line names it when chosen. */
  label: string;
  /**
   * The variables that choose it, as a start-up error names them; absent for a provider that
   * moves no real money (production takes it only with DEMO_PAYMENTS=1).
   */
  keys?: string;
  csp: CspHosts;
  /** Routes of its own (the demo provider's pages), mounted under /api/{name}. */
  routes?: (deps: ProviderRouteDeps) => Hono;
}

const PROVIDERS = {
  stripe: {
    settings: stripeSettings,
    create: (settings, _kv, clock) =>
      stripePayments({ ...(settings as Parameters<typeof stripePayments>[0]), clock }),
    label: "Stripe",
    keys: "STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET",
    csp: STRIPE_CSP,
  },
  demo: {
    settings: () => ({}),
    create: (_settings, kv) => demoPayments(kv),
    label: "demo provider (no other provider's keys set)",
    csp: {},
    routes: demoRoutes,
  },
} satisfies Record<string, ProviderEntry>;

/** The names providers are chosen by: the registry's keys, nowhere else spelled out. */
export type ProviderName = keyof typeof PROVIDERS;

function isProviderName(name: string): name is ProviderName {
  return Object.hasOwn(PROVIDERS, name);
}

function entryOf(choice: PaymentsChoice): ProviderEntry {
  if (!isProviderName(choice.name)) throw new Error(`no payment provider is named ${choice.name}`);
  return PROVIDERS[choice.name];
}

/** Chooses the provider from the environment; throws ConfigError for incomplete settings. */
export function choosePayments(env: Record<string, string | undefined>): PaymentsChoice {
  for (const [name, entry] of Object.entries(PROVIDERS) as [ProviderName, ProviderEntry][]) {
    const settings = entry.settings(env);
    if (settings !== null) return { name, settings };
  }
  throw new Error("no payment provider can be used");
}

/** Whether the chosen provider only simulates payments (no real money moves). */
export function paymentsSimulated(choice: PaymentsChoice): boolean {
  return entryOf(choice).keys === undefined;
}

/** What a start-up error offers for real payments: each real provider's variables. */
export function realPaymentKeys(): string[] {
  return Object.values(PROVIDERS as Record<string, ProviderEntry>).flatMap((p) =>
    p.keys ? [p.keys] : []
  );
}

/** The chosen provider, made. */
export function createPayments(choice: PaymentsChoice, kv: Deno.Kv, clock: Clock): PaymentProvider {
  return entryOf(choice).create(choice.settings, kv, clock);
}

/** How the start-up line names the chosen provider. */
export function paymentsLabel(choice: PaymentsChoice): string {
  return entryOf(choice).label;
}

/** Every registered provider's hosts, for the CSP (whichever is chosen, the policy is one). */
export function paymentCspHosts(): Required<CspHosts> {
  const all = Object.values(PROVIDERS).map((p): CspHosts => p.csp);
  return {
    script: all.flatMap((c) => c.script ?? []),
    frame: all.flatMap((c) => c.frame ?? []),
    img: all.flatMap((c) => c.img ?? []),
    connect: all.flatMap((c) => c.connect ?? []),
  };
}

/** The routes providers serve themselves, by the path they are mounted at. */
export function providerRoutes(deps: ProviderRouteDeps): [string, Hono][] {
  return (Object.entries(PROVIDERS) as [ProviderName, ProviderEntry][]).flatMap(([name, entry]) =>
    entry.routes ? [[`/api/${name}`, entry.routes(deps)] as [string, Hono]] : []
  );
}
