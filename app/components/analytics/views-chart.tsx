import { AxisBottom, AxisLeft } from "@visx/axis";
import { Group } from "@visx/group";
import { scaleBand, scaleLinear } from "@visx/scale";
import { Bar } from "@visx/shape";
import { format, parseISO } from "date-fns";
import { useId } from "react";

const WIDTH = 960;
const HEIGHT = 260;
const MARGIN = { top: 12, right: 12, bottom: 36, left: 48 };

export const dayLabel = (day: string) => format(parseISO(day), "MMM d");

/**
 * Page views per day as bars: an SVG drawn on the server (visx scales and shapes), so it shows
 * without JavaScript, in the page's text colour in both colour modes. For assistive technology
 * it is one image with a summary; the same numbers are in the table beside it.
 */
export function ViewsChart({
  days,
  summary,
}: {
  days: { day: string; views: number }[];
  summary: string;
}) {
  const titleId = useId();
  const innerWidth = WIDTH - MARGIN.left - MARGIN.right;
  const innerHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const x = scaleBand({ domain: days.map((d) => d.day), range: [0, innerWidth], padding: 0.2 });
  const max = Math.max(4, ...days.map((d) => d.views));
  const y = scaleLinear({ domain: [0, max], range: [innerHeight, 0], nice: true });
  // About six dates under the axis, whatever the period's length.
  const every = Math.max(1, Math.ceil(days.length / 6));
  const ticks = days.filter((_, i) => i % every === 0).map((d) => d.day);
  const label = { fill: "currentColor", fontSize: 11, fontFamily: "inherit" } as const;
  return (
    <svg
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      role="img"
      aria-labelledby={titleId}
      className="h-auto w-full text-slate-700 dark:text-slate-200"
    >
      <title id={titleId}>{summary}</title>
      <Group left={MARGIN.left} top={MARGIN.top}>
        {days.map((d) => {
          const top = y(d.views);
          return (
            <Bar
              key={d.day}
              x={x(d.day)}
              y={top}
              width={x.bandwidth()}
              height={innerHeight - top}
              className="fill-brand"
              rx={2}
            >
              <title>{`${dayLabel(d.day)}: ${d.views} page views`}</title>
            </Bar>
          );
        })}
        <AxisLeft
          scale={y}
          numTicks={4}
          tickFormat={(v) => String(v)}
          stroke="currentColor"
          tickStroke="currentColor"
          tickLabelProps={{ ...label, textAnchor: "end", dx: -4, dy: 4 }}
        />
        <AxisBottom
          top={innerHeight}
          scale={x}
          tickValues={ticks}
          tickFormat={(v) => dayLabel(String(v))}
          stroke="currentColor"
          tickStroke="currentColor"
          tickLabelProps={{ ...label, textAnchor: "middle" }}
        />
      </Group>
    </svg>
  );
}
