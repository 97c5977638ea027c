import { validator } from "hono/validator";
import type { z } from "zod";
import { DomainError, InvalidInput } from "../errors.ts";

const JSON_TYPE = /^application\/([\w.-]+\+)?json$/i;

function describe(error: z.ZodError): { message: string; issues: unknown[] } {
  const issues = error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
  const first = issues[0];
  return {
    // Our schemas carry sentences meant for people; zod's own defaults need the field's name.
    message: first.path && /^(Invalid|Too (big|small)|Unrecognized|Expected)/.test(first.message)
      ? `${first.path}: ${first.message}`
      : first.message,
    issues,
  };
}

/** Parses a value with a schema, throwing InvalidInput with a readable message. */
export function parseWith<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const { message, issues } = describe(parsed.error);
    throw new InvalidInput(message, { issues });
  }
  return parsed.data;
}

/** 415 unless the body is declared JSON: other types are what cross-site forms can send. */
function requireJsonType(req: { header(name: string): string | undefined }): void {
  const type = (req.header("Content-Type") ?? "").split(";")[0].trim();
  if (!JSON_TYPE.test(type)) {
    throw new DomainError(
      "unsupported_type",
      "Send the request body as JSON (Content-Type: application/json)",
    );
  }
}

/** Validates a JSON body: 415 for another content type, 400 for bad JSON or a bad shape. */
export function validateJson<T extends z.ZodType>(schema: T) {
  const validate = validator("json", async (_value, c) => {
    requireJsonType(c.req);
    let body: unknown;
    try {
      body = JSON.parse(await c.req.text());
    } catch {
      throw new InvalidInput("The request body is not valid JSON");
    }
    return parseWith(schema, body) as z.infer<T>;
  });
  // Hono's validator reads the body itself and calls any failure malformed JSON; read first, so a
  // body that breaks off is answered as what it is (middleware/while_stopping.ts). Kept, the text
  // is what both parses then read.
  const readFirst: typeof validate = async function readBodyFirst(c, next) {
    await c.req.text();
    return await validate(c, next);
  };
  return readFirst;
}

/** Validates the query string. */
export function validateQuery<T extends z.ZodType>(schema: T) {
  return validator("query", (value) => parseWith(schema, value) as z.infer<T>);
}

/** Validates path parameters. */
export function validateParams<T extends z.ZodType>(schema: T) {
  return validator("param", (value) => parseWith(schema, value) as z.infer<T>);
}

/** Parses a JSON body that may be empty (some calls send none); a body that is sent is JSON. */
export async function optionalJson(
  req: { text(): Promise<string>; header(name: string): string | undefined },
): Promise<unknown> {
  const text = await req.text();
  if (!text.trim()) return {};
  requireJsonType(req);
  try {
    return JSON.parse(text);
  } catch {
    throw new InvalidInput("The request body is not valid JSON");
  }
}
