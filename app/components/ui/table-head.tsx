import type { ReactNode } from "react";

/** A column heading: its text, and `numeric` for a right-aligned column of figures. */
export type Column = ReactNode | { label: ReactNode; numeric?: boolean };

const isLabelled = (c: Column): c is { label: ReactNode; numeric?: boolean } =>
  typeof c === "object" && c !== null && "label" in c;

/**
 * The header row every list table of the project and account pages shares: muted column
 * headings, each `scope="col"`. A `false` or `null` entry is a column left out (shown only to
 * some users).
 */
export function TableHead({ columns }: { columns: (Column | false | null)[] }) {
  const shown = columns.filter((c): c is Column => c !== false && c !== null);
  return (
    <thead>
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
              className={`py-2 font-medium${last ? "" : " pr-3"}${numeric ? " text-right" : ""}`}
            >
              {label}
            </th>
          );
        })}
      </tr>
    </thead>
  );
}
