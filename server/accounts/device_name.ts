/**
 * What a session's device reads as in the Security tab: the browser and the operating system
 * named in its User-Agent ("Firefox on Linux"), enough for a person to recognise their own
 * devices; the raw header is not kept (it is long, and says more than the list needs).
 */

/** Browsers in the order they must be tested: Edge and Opera also say "Chrome", Chrome says "Safari". */
const BROWSERS: [RegExp, string][] = [
  [/Edg(e|A|iOS)?\//, "Edge"],
  [/OPR\/|Opera/, "Opera"],
  [/Firefox\/|FxiOS\//, "Firefox"],
  [/Chrome\/|CriOS\/|Chromium\//, "Chrome"],
  [/Safari\//, "Safari"],
  [/^curl\//, "curl"],
];

/** Systems in the order they must be tested: Android also says "Linux", iOS "like Mac OS X". */
const SYSTEMS: [RegExp, string][] = [
  [/Android/, "Android"],
  [/iPhone|iPad|iPod/, "iOS"],
  [/Windows/, "Windows"],
  [/CrOS/, "ChromeOS"],
  [/Mac OS X|Macintosh/, "macOS"],
  [/Linux/, "Linux"],
];

/** "Browser on System", one of them alone when only one is known, or "Unknown device". */
export function deviceName(userAgent: string | undefined): string {
  const ua = (userAgent ?? "").slice(0, 512);
  const browser = BROWSERS.find(([pattern]) => pattern.test(ua))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(ua))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? "Unknown device";
}
