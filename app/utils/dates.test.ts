import { describe, expect, it } from "vitest";
import { DEFAULT_TIME_ZONE, formatDate, validTimeZone } from "./dates";
import { getTimeZone, savedTimeZone, timeZoneOffset } from "./time-zone.server";

const instant = "2025-03-09T23:30:05.000Z";

describe("formatDate", () => {
  it("prints the day, the time or the timestamp in the given zone", () => {
    expect(formatDate(instant, "UTC")).toBe("Mar 9, 2025");
    expect(formatDate(instant, "UTC", "dateTime")).toBe("Mar 9, 2025 at 11:30 PM");
    expect(formatDate(instant, "UTC", "timestamp")).toBe("Mar 9, 2025 23:30:05");
    // Already the next day in Paris (UTC+1 in March), still the 9th in New York (UTC-4, DST).
    expect(formatDate(instant, "Europe/Paris")).toBe("Mar 10, 2025");
    expect(formatDate(instant, "Europe/Paris", "dateTime")).toBe("Mar 10, 2025 at 12:30 AM");
    expect(formatDate(instant, "Europe/Paris", "timestamp")).toBe("Mar 10, 2025 00:30:05");
    expect(formatDate(instant, "America/New_York", "dateTime")).toBe("Mar 9, 2025 at 7:30 PM");
    expect(formatDate(instant, "Asia/Kolkata", "timestamp")).toBe("Mar 10, 2025 05:00:05");
  });

  it("takes a Date, an ISO string or epoch milliseconds alike", () => {
    const date = new Date(instant);
    expect(formatDate(date, "UTC", "timestamp")).toBe("Mar 9, 2025 23:30:05");
    expect(formatDate(date.getTime(), "UTC", "timestamp")).toBe("Mar 9, 2025 23:30:05");
  });

  it("prints midnight as 00 in timestamps and 12 AM in times", () => {
    const midnight = "2025-01-01T00:00:00.000Z";
    expect(formatDate(midnight, "UTC", "timestamp")).toBe("Jan 1, 2025 00:00:00");
    expect(formatDate(midnight, "UTC", "dateTime")).toBe("Jan 1, 2025 at 12:00 AM");
  });

  it("falls back to UTC for a zone that does not exist, and prints nothing for an invalid date", () => {
    expect(formatDate(instant, "Mars/Olympus_Mons")).toBe("Mar 9, 2025");
    expect(formatDate("not a date", "UTC")).toBe("");
  });
});

describe("validTimeZone", () => {
  it("accepts IANA zones and the aliases browsers report", () => {
    for (const zone of ["UTC", "Etc/UTC", "Europe/Paris", "Asia/Calcutta", "Etc/GMT+5"]) {
      expect(validTimeZone(zone)).toBe(zone);
    }
  });

  it("refuses what is not a zone", () => {
    for (const value of [
      "",
      "Mars/Olympus_Mons",
      "Europe/Paris; x=1",
      "<script>",
      "a".repeat(65),
    ]) {
      expect(validTimeZone(value)).toBeNull();
    }
    expect(validTimeZone(undefined)).toBeNull();
    expect(validTimeZone(42)).toBeNull();
  });
});

describe("getTimeZone", () => {
  const withCookie = (cookie?: string) =>
    new Request("http://localhost/", { headers: cookie ? { Cookie: cookie } : {} });

  it("reads the tz cookie the browser set", () => {
    expect(getTimeZone(withCookie("a=1; tz=Europe%2FParis; b=2"))).toBe("Europe/Paris");
    expect(getTimeZone(withCookie("tz=America/New_York"))).toBe("America/New_York");
  });

  it("is UTC without the cookie, or when it is not a real zone", () => {
    expect(getTimeZone(withCookie())).toBe(DEFAULT_TIME_ZONE);
    expect(getTimeZone(withCookie("theme=dark"))).toBe("UTC");
    expect(getTimeZone(withCookie("tz=Nowhere%2FAtAll"))).toBe("UTC");
    expect(getTimeZone(withCookie("tz=%E0%A4%A"))).toBe("UTC");
    expect(getTimeZone(withCookie("xtz=Europe%2FParis"))).toBe("UTC");
  });
});

describe("savedTimeZone", () => {
  const withCookie = (cookie?: string) =>
    new Request("http://localhost/", { headers: cookie ? { Cookie: cookie } : {} });

  it("is the cookie's zone, and null (not UTC) when there is no usable cookie", () => {
    expect(savedTimeZone(withCookie("tz=Europe%2FParis"))).toBe("Europe/Paris");
    expect(savedTimeZone(withCookie("tz=UTC"))).toBe("UTC");
    expect(savedTimeZone(withCookie())).toBeNull();
    expect(savedTimeZone(withCookie("tz=Nowhere%2FAtAll"))).toBeNull();
  });
});

describe("timeZoneOffset", () => {
  it("is the zone's offset at that moment in getTimezoneOffset's terms, summer time included", () => {
    expect(timeZoneOffset("UTC", new Date("2025-01-15T12:00:00Z"))).toBe(0);
    expect(timeZoneOffset("Europe/Paris", new Date("2025-01-15T12:00:00Z"))).toBe(-60);
    expect(timeZoneOffset("Europe/Paris", new Date("2025-07-15T12:00:00Z"))).toBe(-120);
    expect(timeZoneOffset("America/New_York", new Date("2025-01-15T12:00:00Z"))).toBe(300);
    expect(timeZoneOffset("Asia/Kolkata", new Date("2025-01-15T12:00:00Z"))).toBe(-330);
  });
});
