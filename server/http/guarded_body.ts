/**
 * `body` as a stream whose failed read (the connection lost, or the server cutting the body off
 * as it stops) fails with `failure()` instead: an error the shop answers in words. Deno's own
 * error (BadResource) reached the error handler as a 500, or the JSON reader as "not valid JSON".
 */
export function guardedBody(
  body: ReadableStream<Uint8Array>,
  failure: () => Error,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch {
        controller.error(failure());
        return;
      }
      if (chunk.done) controller.close();
      else controller.enqueue(chunk.value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
}
