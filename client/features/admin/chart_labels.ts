/**
 * A switch's name as the stock chart's axis shows it: whole words on at most two lines of
 * `maxChars`, so names that start alike ("NovelKeys x Kailh Box Jade", "… Box Navy") still read
 * apart on a phone. Only a name longer than two lines loses its end, marked with "…" (the
 * tooltip and the table below the chart give it whole).
 */
export function tickLines(name: string, maxChars: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of name.split(/\s+/).filter(Boolean)) {
    const joined = line ? `${line} ${word}` : word;
    if (joined.length <= maxChars || !line) {
      line = joined;
      continue;
    }
    lines.push(line);
    line = word;
  }
  if (line) lines.push(line);
  if (lines.length <= 2) return lines.map((l) => clipped(l, maxChars));
  return [clipped(lines[0], maxChars), clipped(lines.slice(1).join(" "), maxChars)];
}

/** A line cut to `maxChars`, its last character an ellipsis when cut. */
function clipped(line: string, maxChars: number): string {
  return line.length > maxChars ? `${line.slice(0, maxChars - 1)}…` : line;
}
