import type { PageInfo } from "../../shared/routes.ts";
import { isRefusal, PAGE_DATA_ID } from "../../shared/page_data_wire.ts";
import { type RenderedPage, renderPage } from "./render_elsewhere.ts";
import { structuredData } from "./structured_data.ts";

/** One server-rendered page to send. */
export interface PageToRender {
  /** The document up to the root element's opening tag, and from its closing tag on. */
  head: string;
  tail: string;
  /** Path and query, as the browser's router will read them. */
  url: string;
  page: PageInfo | undefined;
  origin: string;
  imageBase: string;
  /** A GET of the shop's API, as this request's client (server/ssr/api_reader.ts). */
  answer: (path: string) => Promise<unknown>;
  /**
   * Sees the whole document once it rendered without a failure, and what it read, whether or not
   * the visitor stayed to read it all.
   */
  onRendered?: (html: string, paths: string[], answers: unknown[]) => void;
}

/** JSON inside a script element: nothing in it may close the element or start a comment. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/**
 * A page's document as a stream: the head at once (the browser parses its inline stylesheet
 * while the page renders), then the page React rendered with its data, then the data itself for
 * hydration (client/app/page_data.ts) and its structured data for search engines. If
 * rendering fails the root is left empty: the browser renders the page itself, as before.
 */
export function serverRendered(doc: PageToRender): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    async start(controller) {
      const send = (text: string | Uint8Array) => {
        try {
          controller.enqueue(typeof text === "string" ? encoder.encode(text) : text);
          return true;
        } catch {
          return false; // the visitor went away
        }
      };
      send(doc.head);
      let scripts = "";
      let complete = false;
      let rendered: RenderedPage | null = null;
      try {
        rendered = await renderPage(doc.url, doc.imageBase, doc.answer, (error) => {
          console.error(`Server rendering of ${doc.url} failed in part`, error);
        });
        const { answers, paths } = rendered;
        // Structured data is made from answers only: a refused one leaves its part out. A path
        // the page did not read is read here, and kept with the others (the page's key has it).
        const more = new Map<string, Promise<unknown>>();
        const answerOnly = (path: string) => {
          let answer = paths.includes(path) ? Promise.resolve(answers[path]) : more.get(path);
          if (!answer) {
            answer = doc.answer(path).then((value) => {
              if (value !== undefined) answers[path] = value;
              return value;
            });
            more.set(path, answer);
            paths.push(path);
          }
          return answer.then((a) => isRefusal(a) ? undefined : a);
        };
        const things = doc.page ? await structuredData(doc.page, doc.origin, answerOnly) : [];
        // Sent even if the visitor went away: the render is paid for, so it is kept below.
        send(rendered.html);
        const data = { url: doc.url, answers };
        scripts =
          `<script type="application/json" id="${PAGE_DATA_ID}">${scriptJson(data)}</script>` +
          things.map((thing) => `<script type="application/ld+json">${scriptJson(thing)}</script>`)
            .join("");
        complete = !rendered.failed;
      } catch (error) {
        console.error(`Server rendering of ${doc.url} failed; the browser renders it`, error);
      }
      const tail = doc.tail.replace("</div>", () => `</div>${scripts}`);
      send(tail);
      if (complete && rendered && doc.onRendered) {
        const { paths, answers } = rendered;
        doc.onRendered(
          `${doc.head}${rendered.html}${tail}`,
          paths,
          paths.map((path) => answers[path]),
        );
      }
      try {
        controller.close();
      } catch { /* cancelled */ }
    },
  });
}
