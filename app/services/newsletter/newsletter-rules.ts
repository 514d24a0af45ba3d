/**
 * The newsletter area's words, defaults and display rules, without server code so the settings
 * form and its preview use them as people type.
 */
/**
 * Sender domains one project may hold: every domain counts against the platform's quota at the
 * mail provider. A brand sends from one or two (a main domain, a campaign's); 5 leaves room.
 */
export const MAX_SENDER_DOMAINS = 5;

export const NEWSLETTER_MESSAGES = {
  saved: "Settings saved",
  saveFailed: "Error saving settings",
  unexpected: "An unexpected error occurred",
  domainExists: "Domain already exists",
  domainAdded: "Domain added",
  domainAddedHint: "Add the DNS records below to your domain's DNS, then verify it.",
  addFailed: "Error adding domain",
  verified: "Domain verified",
  notVerified: "Domain not verified",
  notVerifiedHint: "DNS records not found yet. It may take a few minutes after you add them.",
  verifying: "Verification in progress",
  verifyingHint: "We check the DNS records again on our own; the status updates here.",
  verifyFailed: "Error verifying domain",
  deleted: "Domain deleted successfully",
  deleteFailed: "Error deleting domain",
  notVerifiedYet: "Domain is not verified yet",
  fetchDomainsFailed: "Failed to fetch domains",
  // The JSON API's `error` when the provider fails (the page shows its toasts instead).
  getDomainsFailed: "Failed to get domains",
  createFailed: "Failed to create domain",
  verifyRequestFailed: "Failed to verify domain",
  deleteRequestFailed: "Failed to delete domain",
  fetchRecordsFailed: "Failed to fetch DNS records",
  noRecords: "No DNS records found in response",
  domainIdRequired: "Domain ID required",
  testSent: "Test e-mail sent",
  domainLimit: `A project can have at most ${MAX_SENDER_DOMAINS} sender domains. Delete one to add another.`,
} as const;

export const NEWSLETTER_DEFAULTS = {
  fromName: "Newsletter",
  brandColor: "#296EFF",
  enableUnsubscribeLink: true,
  region: "us-east-1",
} as const;

export const SOCIAL_NETWORKS = ["facebook", "twitter", "instagram", "linkedin"] as const;
export type SocialNetwork = (typeof SOCIAL_NETWORKS)[number];

/** The settings as the form and the preview use them. */
export type NewsletterSettingsView = {
  fromName: string;
  fromEmail: string;
  replyToEmail: string;
  companyName: string;
  companyAddress: string;
  companyWebsite: string;
  footerText: string;
  enableUnsubscribeLink: boolean;
  brandColor: string;
  socialLinks: Record<SocialNetwork, string>;
  /** Where the saved logo is served, or null. */
  logoUrl: string | null;
};

export const EMPTY_SETTINGS: NewsletterSettingsView = {
  fromName: NEWSLETTER_DEFAULTS.fromName,
  fromEmail: "",
  replyToEmail: "",
  companyName: "",
  companyAddress: "",
  companyWebsite: "",
  footerText: "",
  enableUnsubscribeLink: NEWSLETTER_DEFAULTS.enableUnsubscribeLink,
  brandColor: NEWSLETTER_DEFAULTS.brandColor,
  socialLinks: { facebook: "", twitter: "", instagram: "", linkedin: "" },
  logoUrl: null,
};

/**
 * The domain newsletters are sent from: what follows the @ of the from-address, or the site's
 * own host when there is no from-address yet.
 */
export function senderDomainOf(fromEmail: string, siteHost: string | null): string | null {
  const at = fromEmail.lastIndexOf("@");
  if (at >= 0)
    return (
      fromEmail
        .slice(at + 1)
        .trim()
        .toLowerCase() || null
    );
  return siteHost?.toLowerCase() || null;
}

export type DisplayRecord = {
  type: string;
  host: string;
  value: string;
  ttl: string;
  status: string;
  priority?: number;
};

/**
 * The DNS records as the table shows them: hosts relative to the domain ('@' for the domain
 * itself), and a DMARC record added when the provider gave none (receivers want one).
 */
export function displayRecords(
  domain: string,
  records: {
    type: string;
    name: string;
    value: string;
    ttl: string;
    status: string;
    priority?: number;
  }[],
): DisplayRecord[] {
  const suffix = `.${domain.toLowerCase()}`;
  const rows: DisplayRecord[] = records.map((r) => {
    let host = r.name.trim().replace(/\.$/, "");
    const lower = host.toLowerCase();
    if (lower === domain.toLowerCase()) host = "";
    else if (lower.endsWith(suffix)) host = host.slice(0, -suffix.length);
    return {
      type: r.type,
      host: host || "@",
      value: r.value,
      ttl: r.ttl,
      status: r.status,
      ...(r.priority === undefined ? {} : { priority: r.priority }),
    };
  });
  const hasDmarc = rows.some(
    (r) => r.type.toUpperCase() === "TXT" && r.host.toLowerCase() === "_dmarc",
  );
  if (!hasDmarc) {
    rows.push({
      type: "TXT",
      host: "_dmarc",
      value: "v=DMARC1; p=none;",
      ttl: "Auto",
      status: "recommended",
    });
  }
  return rows;
}

/** A #RRGGBB colour. */
export const isHexColour = (value: string) => /^#[0-9a-fA-F]{6}$/.test(value);

// ---------------------------------------------------------------------------------------------
// Readable brand colour

function luminance(hex: string) {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(1 + 2 * i, 3 + 2 * i), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2);
}

/** WCAG 2 contrast ratio of two #rrggbb colours (1 to 21). */
export function contrastRatio(a: string, b: string) {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/**
 * The brand colour as newsletter TEXT (the heading, the unsubscribe link): the colour itself when
 * it reaches WCAG AA (4.5:1) on the light backgrounds it is drawn on, else the same hue darkened
 * just enough. The border keeps the colour as chosen. The spec's default #296EFF gives 4.4:1 on
 * white, so its text is drawn a shade darker.
 */
export function readableBrandText(hex: string, backgrounds = ["#ffffff", "#f8fafc"]) {
  if (!/^#[0-9a-fA-F]{6}$/.test(hex)) return "#1e293b";
  const channels = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  for (let step = 0; step <= 20; step += 1) {
    const factor = 1 - step * 0.05;
    const colour = `#${channels
      .map((c) =>
        Math.round(c * factor)
          .toString(16)
          .padStart(2, "0"),
      )
      .join("")}`;
    if (backgrounds.every((bg) => contrastRatio(colour, bg) >= 4.5)) return colour;
  }
  return "#000000";
}
