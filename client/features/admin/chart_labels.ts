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
    if (characters(joined).length <= maxChars || !line) {
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
  const chars = characters(line);
  return chars.length > maxChars ? `${chars.slice(0, maxChars - 1).join("")}…` : line;
}

const GRAPHEMES = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/**
 * A line's characters as a reader counts them: a name the owner typed may hold an emoji or a
 * letter outside the BMP, which String.slice cut in half (a "�" on the axis).
 */
function characters(line: string): string[] {
  return [...GRAPHEMES.segment(line)].map((part) => part.segment);
}
