import { createApp } from "./app.ts";
import { loadConfig } from "./config.ts";
import type { Config } from "./deps.ts";
import { ConfigError } from "./errors.ts";
import { jsonLogger } from "./log.ts";
import { systemClock } from "./clock.ts";
import { openKv } from "./kv/open.ts";
import { seedKv } from "./ops/seed.ts";
import { logMailer } from "./email/mailer.ts";
import { type QueueWorker, startQueueWorker } from "./queue.ts";
import { createPayments, paymentsLabel } from "./payments/registry.ts";
import { type ShutdownGate, shutdownGate } from "./http/shutdown_gate.ts";
import {
  ADMIN_PASSWORD_FILE,
  adminPasswordFolder,
  keptAdminPassword,
} from "./ops/admin_password_file.ts";

/** The job runner once the shop has started, for the cron below. */
const started = Promise.withResolvers<QueueWorker>();

// Deno Deploy runs an isolate only while requests come, so a job due in half an hour (a hold's
// expiry, an email's next try) could wait for the next visitor. This cron wakes one every minute
// to run what is due. Deploy finds crons by running the module's top level, so it is registered
// here, before anything else; on a self-hosted shop it runs in the process beside the runner's
// own look every second, harmlessly (a job is claimed once).
Deno.cron("run due jobs", "* * * * *", async () => {
  await (await started.promise).runDue();
});

/** Starts the shop: validated config, KV, seed data, then the HTTP server. */
async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig(Deno.env.toObject());
  } catch (err) {
    if (err instanceof ConfigError) {
      // One line per problem, each whole on its own, as a log collector keeps lines apart.
      for (const line of err.message.split("\n")) console.error(`Cannot start the shop: ${line}`);
      Deno.exit(1);
    }
    throw err;
  }
  // Without ADMIN_PASSWORD (development only: production requires it) the generated password is
  // kept beside the KV file, so a restart does not sign the owner out of a password they copied.
  const passwordFolder = config.adminPasswordGenerated
    ? adminPasswordFolder(config.kvPath, { deployed: Boolean(Deno.env.get("DENO_DEPLOYMENT_ID")) })
    : null;
  if (passwordFolder !== null) {
    const generated = config.adminPassword;
    config = { ...config, adminPassword: await keptAdminPassword(passwordFolder, () => generated) };
  }
  const kv = await openKv(config.kvPath);
  await seedKv(kv, systemClock);
  // nodemailer is loaded only where SMTP_URL is set: every other start (development, a test's
  // shop) skipped its loading, some 0.07 s of a core.
  const mailer = config.smtpUrl
    ? (await import("./email/smtp_mailer.ts")).smtpMailer(config.smtpUrl, config.mailFrom)
    : logMailer(jsonLogger);
  const payments = createPayments(config.payments, kv, systemClock);
  // The app is built once the server has bound, with the port it got (PORT=0 picks any free
  // one), since without PUBLIC_URL it answers only to a Host naming that port. No request is
  // handled before the app exists: the handler runs only after this synchronous start returns.
  const shop: { app?: ReturnType<typeof createApp> } = {};
  const server = Deno.serve({
    port: config.port,
    hostname: config.host,
    // The listening line comes last: whoever waits for it (a person, a test, a script) has
    // then read everything the start had to say.
    onListen: ({ hostname, port }) => {
      if (config.adminPasswordGenerated) {
        const kept = passwordFolder === null
          ? "generated for this run"
          : `kept in ${passwordFolder.replace(/\/$/, "")}/${ADMIN_PASSWORD_FILE}`;
        console.log(
          `Admin password (${kept}; set ADMIN_PASSWORD to choose one): ${config.adminPassword}`,
        );
      }
      console.log(
        `Payments: ${paymentsLabel(config.payments)}${
          config.paymentsSimulated ? " - simulated, no real money moves" : ""
        }`,
      );
      console.log(`Shop listening on http://${hostname}:${port}/`);
    },
  }, async (request, info) => {
    const answer = await shop.app!.fetch(request, info);
    // A write may have stored a job due now (a confirmation email): look at once rather than
    // at the runner's next tick.
    if (request.method !== "GET" && request.method !== "HEAD") queue.nudge();
    return answer;
  });
  const base = { kv, config, clock: systemClock, logger: jsonLogger, mailer, payments };
  const queue = startQueueWorker(base);
  started.resolve(queue);
  const shutdown = shutdownGate();
  shop.app = createApp({ ...base, listenPort: server.addr.port, queue, shutdown });
  stopOnSignals(server, queue, shutdown);
}

/**
 * How long a stop waits for request bodies still arriving before it closes the listener, which
 * cuts them off (each is then answered 503). With the queue's 10 s it stays within the 20 s the
 * service unit and the compose file give a stop before SIGKILL.
 */
const UPLOAD_WAIT_MS = 5_000;

/**
 * Graceful shutdown on SIGTERM (what orchestrators and systemd send) and SIGINT (Ctrl-C): turn
 * new requests away (503) while the bodies still arriving come in (bounded), then stop accepting,
 * let the requests in flight finish, let the queue's jobs in hand finish and close KV, then exit
 * 0. A second signal exits at once, for a stop that waits on a stuck client.
 */
function stopOnSignals(server: Deno.HttpServer, queue: QueueWorker, gate: ShutdownGate): void {
  let stopping = false;
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    Deno.addSignalListener(signal, async () => {
      if (stopping) {
        jsonLogger({ msg: "shop stopped at once", level: "warn", signal });
        Deno.exit(1);
      }
      stopping = true;
      jsonLogger({ msg: "shop stopping", signal });
      let timer: ReturnType<typeof setTimeout> | undefined;
      const cutOff = await gate.drain(
        new Promise((resolve) => timer = setTimeout(resolve, UPLOAD_WAIT_MS)),
      );
      clearTimeout(timer);
      if (cutOff > 0) {
        jsonLogger({ msg: "uploads cut off by the stop", level: "warn", signal, requests: cutOff });
      }
      await server.shutdown();
      await queue.stop();
      jsonLogger({ msg: "shop stopped", signal });
      Deno.exit(0);
    });
  }
}

if (import.meta.main) await main();
