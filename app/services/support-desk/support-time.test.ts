import { describe, expect, it } from "vitest";
import { lastUpdated } from "./support-time";

const NOW = "2026-03-10T12:00:00.000Z";
const before = (ms: number) => new Date(Date.parse(NOW) - ms).toISOString();
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe("lastUpdated", () => {
  it("says 'Just now' under a minute", () => {
    expect(lastUpdated(NOW, NOW)).toBe("Just now");
    expect(lastUpdated(before(59 * SECOND), NOW)).toBe("Just now");
  });

  it("counts whole minutes under an hour, singular for one", () => {
    expect(lastUpdated(before(MINUTE), NOW)).toBe("1 minute ago");
    expect(lastUpdated(before(2 * MINUTE + 59 * SECOND), NOW)).toBe("2 minutes ago");
    expect(lastUpdated(before(59 * MINUTE), NOW)).toBe("59 minutes ago");
  });

  it("counts whole hours under a day", () => {
    expect(lastUpdated(before(HOUR), NOW)).toBe("1 hour ago");
    expect(lastUpdated(before(23 * HOUR + 59 * MINUTE), NOW)).toBe("23 hours ago");
  });

  it("counts whole days from a day on", () => {
    expect(lastUpdated(before(DAY), NOW)).toBe("1 day ago");
    expect(lastUpdated(before(3 * DAY + 5 * HOUR), NOW)).toBe("3 days ago");
    expect(lastUpdated(before(400 * DAY), NOW)).toBe("400 days ago");
  });

  it("reads a time ahead of now (clock skew) or an unreadable one as 'Just now'", () => {
    expect(lastUpdated(before(-5 * MINUTE), NOW)).toBe("Just now");
    expect(lastUpdated("not a date", NOW)).toBe("Just now");
  });

  it("takes Dates as well as ISO strings", () => {
    expect(lastUpdated(new Date(before(2 * HOUR)), new Date(NOW))).toBe("2 hours ago");
  });
});
