import type { ReactNode } from "react";

/** A column heading: its text, and `numeric` for a right-aligned column of figures. */
export type Column = ReactNode | { label: ReactNode; numeric?: boolean };

const isLabelled = (c: Column): c is { label: ReactNode; numeric?: boolean } =>
  typeof c === "object" && c !== null && "label" in c;

/**
 * The header row every table of the app shares: muted column headings, each `scope="col"`. A
 * `false` or `null` entry is a column left out (shown only to some users). `className` styles
 * the header itself (a stripe, a sticky header); `cellClassName` pads each heading like the
 * body's cells (by default a gap after every column but the last).
 */
export function TableHead({
  columns,
  className,
  cellClassName,
}: {
  columns: (Column | false | null)[];
  className?: string;
  cellClassName?: string;
}) {
  const shown = columns.filter((c): c is Column => c !== false && c !== null);
  return (
    <thead className={className}>
      <tr className="text-slate-600 dark:text-slate-300">
        {shown.map((column, i) => {
          const { label, numeric } = isLabelled(column)
            ? column
            : { label: column, numeric: false };
          const last = i === shown.length - 1;
          return (
            <th
              key={i}
              scope="col"
              className={`${cellClassName ?? (last ? "py-2" : "py-2 pr-3")} font-medium ${
                numeric ? "text-right" : "text-left"
              }`}
            >
              {label}
            </th>
          );
        })}
      </tr>
    </thead>
  );
}
