/** One structured log line. */
export type LogEntry = Record<string, unknown> & { msg: string };

/** Where log lines go; tests pass a silent one. */
export type Logger = (entry: LogEntry) => void;

/** Writes JSON lines to stdout, the format log collectors (and Deno Deploy) read best. */
export function jsonLogger(entry: LogEntry): void {
  console.log(JSON.stringify({ time: new Date().toISOString(), ...entry }));
}
