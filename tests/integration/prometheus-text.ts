/** Reading the Prometheus text format of GET /metrics, for the metrics tests. */

/**
 * The value of the sample `name` whose labels include `labels`, from the text format; undefined
 * when there is none.
 */
export function sample(text: string, name: string, labels: Record<string, string> = {}) {
  for (const line of text.split("\n")) {
    if (line.startsWith("#")) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries(
      [...(match[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) {
      return Number(match[3]);
    }
  }
  return undefined;
}
