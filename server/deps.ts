import type { IpRanges } from "./net/ip_ranges.ts";
import type { Clock } from "./clock.ts";
import type { Logger } from "./log.ts";
import type { Mailer } from "./email/mailer.ts";
import type { PaymentProvider, PaymentsChoice } from "./payments/provider.ts";
import type { ShutdownGate } from "./http/shutdown_gate.ts";

/** Runtime settings, read once from the environment at start-up. */
export interface Config {
  port: number;
  /** Interface to listen on; 0.0.0.0 to accept other machines. */
  host: string;
  kvPath: string | undefined;
  production: boolean;
  adminPassword: string;
  /** True when the admin password was generated because none was set. */
  adminPasswordGenerated: boolean;
  /** The payment provider the environment chooses, with its settings (server/payments/registry.ts). */
  payments: PaymentsChoice;
  /** The chosen provider moves no real money (the demo one): admin pages say so. */
  paymentsSimulated: boolean;
  publicUrl: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  shopEmail: string;
  imageBaseUrl: string | undefined;
  /** Minutes a checkout holds its stock before the reservation lapses. */
  reservationMinutes: number;
  /** Minutes the shopper's one extension adds to a hold (POST /api/orders/{n}/extend-hold). */
  holdExtensionMinutes: number;
  /** Unpaid checkouts one client may hold stock with at once. */
  maxHoldsPerClient: number;
  /** Units (testers, packs, items) one client's unpaid checkouts may hold together. */
  maxHeldUnitsPerClient: number;
  /** Checkouts one client may start per 10 minutes. */
  checkoutsPerClient: number;
  /** Carts one client may create per 10 minutes. */
  newCartsPerClient: number;
  /** Places in drops' waiting rooms one client network may take per 10 minutes. */
  dropJoinsPerClient: number;
  /** Places in drops' waiting rooms one block of networks (IPv4 /24, IPv6 /48) may take per 10 minutes. */
  dropJoinsPerBlock: number;
  /**
   * What rendering may cost: new pages and link previews per client and for the whole shop, per
   * minute (kept ones are free), and the bytes of rendered pages kept.
   */
  renders: {
    pagesPerClient: number;
    pagesPerShop: number;
    previewsPerClient: number;
    previewsPerShop: number;
    pageCacheBytes: number;
  };
  /** Where the built client lives. */
  distDir: string;
  /** Live reload of a rebuilt client: only in a server run by `deno task dev`, never in production. */
  devReload: boolean;
  /**
   * One JSON line per request, pages and assets too (LOG_REQUESTS=0 turns them off, e.g. under
   * load tests).
   */
  logRequests: boolean;
  /** Our own reverse proxies: only their X-Forwarded-For names the client (none by default). */
  trustedProxies: IpRanges;
  /** IPv6 clients are counted by this prefix (64: one host's network), IPv4 ones by address. */
  clientIpv6Prefix: number;
}

/** Everything the app needs from outside, passed in so tests can swap any of it. */
export interface AppDeps {
  kv: Deno.Kv;
  config: Config;
  clock: Clock;
  logger: Logger;
  mailer: Mailer;
  payments: PaymentProvider;
  /**
   * Called after each named step of the order workflows (`server/orders/steps.ts`). The shop
   * passes none; the crash tests throw here to stop a workflow at a step boundary, as a process
   * that dies there would.
   */
  onStep?: (step: string) => void | Promise<void>;
  /**
   * The port the server bound (main.ts, once it listens; PORT=0 picks any free one). Without
   * PUBLIC_URL the shop answers only to a Host naming it. An app never served on a port of its
   * own (tests calling it directly) has none, and answers to any port of its host names.
   */
  listenPort?: number;
  /**
   * The process's job runner (server/queue.ts), which /api/ready asks whether it runs. An app
   * without one (tests calling it directly) is never ready.
   */
  queue?: QueueStatus;
  /**
   * The process's stop (main.ts drives it on SIGTERM/SIGINT): once stopping, requests are turned
   * away with a 503, and the stop waits for the bodies still arriving. An app never stopped
   * (tests calling it directly) has none.
   */
  shutdown?: ShutdownGate;
  /**
   * PBKDF2 iterations of the password hashes made from now on (server/accounts/users.ts; a
   * stored hash is checked at the count it was made with). The shop passes none: 600,000. Each
   * hash keeps a core busy for about 0.1 s, so tests whose subject is not the hash pass fewer.
   */
  passwordIterations?: number;
}

/** What the readiness check asks of the job runner. */
export interface QueueStatus {
  running(): boolean;
}

/** What route modules get: the app's dependencies and where product images are served from. */
export type RouteDeps = AppDeps & { imageBase: string };
