import { type Browser, chromium, type Page } from "playwright-core";

/** Chromium's browser builds, by the names their packages install. */
const FULL_NAMES = ["chromium", "chromium-browser", "google-chrome"];
/**
 * Chromium's headless shell (Debian's `chromium-headless-shell`, the same build as its `chromium`
 * and what Playwright itself runs headless): a page in it costs about a third of the CPU a page of
 * the whole browser's headless mode does (measured: ten shop pages, 5.4 s of CPU against 16.2 s),
 * and CPU is what the suite's time on two cores is made of. The tests use it where it is
 * installed, else the whole browser.
 */
const SHELL_NAMES = ["chromium-headless-shell"];

/** CHROME_PATH, then each name on PATH, then in /usr/bin; null when none is there. */
export function findChromium(names: readonly string[]): string | null {
  const candidates = [
    Deno.env.get("CHROME_PATH"),
    ...(Deno.env.get("PATH") ?? "").split(":").filter(Boolean)
      .flatMap((dir) => names.map((name) => `${dir}/${name}`)),
    ...names.map((name) => `/usr/bin/${name}`),
  ].filter((p): p is string => !!p);
  for (const path of candidates) {
    try {
      if (Deno.statSync(path).isFile) return path;
    } catch { /* not here */ }
  }
  return null;
}

/** The Chromium the browser tests drive, or null when none is installed. */
export const CHROMIUM_PATH = findChromium([...SHELL_NAMES, ...FULL_NAMES]);

/** The whole browser (for Lighthouse, which measures what shoppers' browsers do). */
export const FULL_CHROMIUM_PATH = findChromium(FULL_NAMES);

/** Browser tests run when Chromium exists; REQUIRE_BROWSER=1 makes its absence a failure. */
export const browserMissing = CHROMIUM_PATH === null;

if (browserMissing) {
  const message = "NO CHROMIUM FOUND: the end-to-end browser tests are NOT running. " +
    "Install it with `apt-get install -y chromium-headless-shell` or `apt-get install -y " +
    "chromium` (or set CHROME_PATH).";
  if (Deno.env.get("REQUIRE_BROWSER") === "1") throw new Error(message);
  console.warn(`\n${"!".repeat(100)}\n${message}\n${"!".repeat(100)}\n`);
}

/** Launches the system Chromium headless with the flags this closed network needs. */
export async function launchBrowser(): Promise<Browser> {
  return await chromium.launch({
    executablePath: CHROMIUM_PATH!,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--no-first-run",
      "--disable-quic",
      "--disable-sync",
      "--disable-dev-shm-usage",
    ],
  });
}

/** What went wrong on a page: console errors, uncaught exceptions and failed requests. */
export interface PageProblems {
  errors: string[];
}

/**
 * Records console errors, page exceptions, failed requests and HTTP errors on a page.
 * `allowStatus` lists URL fragments whose 4xx answers are expected by the test.
 */
export function watchProblems(page: Page, allow: RegExp[] = []): PageProblems {
  const problems: PageProblems = { errors: [] };
  const allowed = (text: string) => allow.some((re) => re.test(text));
  page.on("console", (msg) => {
    // Resource errors name their URL only in the location, so match the allow-list on both.
    const text = `${msg.text()} ${msg.location()?.url ?? ""}`;
    if (msg.type() === "error" && !allowed(text)) problems.errors.push(`console: ${text}`);
  });
  page.on("pageerror", (err) => problems.errors.push(`exception: ${err.message}`));
  page.on("requestfailed", (req) => {
    const text = `${req.url()} ${req.failure()?.errorText}`;
    if (!allowed(text) && !/ERR_ABORTED/.test(text)) problems.errors.push(`failed: ${text}`);
  });
  page.on("response", (res) => {
    const text = `${res.status()} ${res.url()}`;
    if (res.status() >= 400 && !allowed(text)) problems.errors.push(`http: ${text}`);
  });
  return problems;
}

/** Waits for a toast with the text (react-hot-toast renders them as role=status). */
export async function expectToast(page: Page, text: string | RegExp): Promise<void> {
  await page.getByRole("status").filter({ hasText: text }).first().waitFor();
}

/** Waits until the header's cart badge shows `count` (null: no badge at all). */
export async function waitForBadge(page: Page, count: number | null): Promise<void> {
  await page.waitForFunction(
    (n) => (document.querySelector('[data-testid="cart-badge"]')?.textContent ?? null) === n,
    count === null ? null : String(count),
  );
}

/**
 * Resolves once the page has run the tasks queued before it, such as the render React schedules
 * after a state change (its scheduler posts a message; this posts one behind it). A check that
 * something did not change is then made after any render already due, not before it.
 */
export async function settle(page: Page): Promise<void> {
  await page.evaluate(() =>
    new Promise<void>((resolve) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        channel.port1.close();
        resolve();
      };
      channel.port2.postMessage(null);
    })
  );
}

/**
 * Resolves once no toast is shown and no finite animation runs (a panel sliding): an accessibility
 * check measures colours as drawn, and a toast that appears or fades during the scan is read
 * half-drawn as a contrast failure of the moment, not of the page (seen twice in CI at load 15,
 * once after the animations had ended: the toast came mid-scan). Endless animations (a spinner)
 * are not waited for. A toast lasts 4 s.
 */
export async function animationsDone(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      (document.querySelector("[data-rht-toaster]")?.childElementCount ?? 0) === 0 &&
      document.getAnimations().every((a) =>
        a.playState !== "running" || a.effect?.getTiming().iterations === Infinity
      ),
    null,
    { timeout: 15_000 },
  );
}

/**
 * Turns the page to `theme` as the visitor's system setting would, and resolves once the page has
 * followed (the theme script sets <html data-theme>).
 */
export async function turnTheme(page: Page, theme: "light" | "dark"): Promise<void> {
  await page.emulateMedia({ colorScheme: theme });
  await page.waitForFunction((t) => document.documentElement.dataset.theme === t, theme);
}
