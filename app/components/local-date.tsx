import { formatDate, type DateStyle } from "~/utils/dates";
import { useTimeZone } from "~/utils/time-zone";

/** An absolute date in the person's time zone (app/utils/dates.ts), as a <time> element. */
export function LocalDate({ value, style = "date" }: { value: string; style?: DateStyle }) {
  const timeZone = useTimeZone();
  return <time dateTime={value}>{formatDate(value, timeZone, style)}</time>;
}
