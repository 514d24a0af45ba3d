import { differenceInMilliseconds } from "date-fns";
import { DEFAULT_TIME_ZONE, formatDate } from "~/utils/dates";

/**
 * Recent requests get a 'New' badge; the product does not say how recent. We use 7 days: a
 * request submitted within the last week is still one an admin is likely not to have looked at,
 * and it matches a weekly review habit.
 */
export const NEW_REQUEST_MS = 7 * 24 * 60 * 60 * 1000;

export function isNewRequest(createdAt: Date, now: Date = new Date()) {
  const age = differenceInMilliseconds(now, createdAt);
  return age >= 0 && age < NEW_REQUEST_MS;
}

/** A stored website (a bare domain or an http(s) URL) as a link target; never another scheme. */
export function websiteHref(value: string | null | undefined) {
  if (!value) return null;
  if (/^https?:\/\//i.test(value)) return value;
  if (/^[a-z][a-z0-9+.-]*:/i.test(value)) return null;
  return `https://${value}`;
}

type Row = {
  id: string;
  fullName: string;
  businessEmail: string;
  companyName: string | null;
  websiteAddress: string | null;
  telephoneNumber: string | null;
  numberOfEmployees: string | null;
  additionalInfo: string | null;
  requestStatus: "Pending" | "Rejected" | "Approved";
  createdAt: Date;
};

/**
 * What a request card shows. Dates are formatted here, on the server, in the admin's time zone
 * (app/utils/dates.ts), so the server render and the hydrated page agree.
 */
export function toRequestCard(
  row: Row,
  now: Date = new Date(),
  timeZone: string = DEFAULT_TIME_ZONE,
) {
  return {
    id: row.id,
    fullName: row.fullName,
    businessEmail: row.businessEmail,
    companyName: row.companyName,
    websiteAddress: row.websiteAddress,
    websiteHref: websiteHref(row.websiteAddress),
    telephoneNumber: row.telephoneNumber,
    numberOfEmployees: row.numberOfEmployees,
    additionalInfo: row.additionalInfo,
    status: row.requestStatus,
    isNew: isNewRequest(row.createdAt, now),
    submittedIso: row.createdAt.toISOString(),
    submitted: formatDate(row.createdAt, timeZone, "dateTime"),
  };
}

export type RequestCardView = ReturnType<typeof toRequestCard>;
