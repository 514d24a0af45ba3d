import { readableBrandText, type NewsletterSettingsView } from "~/services/newsletter";

/**
 * The header and footer every newsletter of the project gets, drawn from the settings (as they
 * are typed, with JavaScript; as saved, without). The same parts the test e-mail carries.
 */
export function NewsletterPreview({ settings }: { settings: NewsletterSettingsView }) {
  const socials = Object.entries(settings.socialLinks).filter(([, url]) => url);
  const brandText = readableBrandText(settings.brandColor);
  return (
    <figure
      aria-label="Newsletter preview"
      className="overflow-hidden rounded-lg border border-slate-200 bg-white text-slate-900 shadow-sm dark:border-slate-700"
    >
      <div className="border-t-8 p-4" style={{ borderTopColor: settings.brandColor }}>
        {settings.logoUrl ? (
          <img src={settings.logoUrl} alt="Logo" className="mb-2 h-12 w-auto" />
        ) : null}
        <p className="text-lg font-semibold" style={{ color: brandText }}>
          {settings.fromName || "Newsletter"}
        </p>
      </div>
      <div className="space-y-2 px-4 pb-4 text-sm text-slate-600">
        <div className="h-2 w-3/4 rounded bg-slate-200" />
        <div className="h-2 w-2/3 rounded bg-slate-200" />
        <div className="h-2 w-1/2 rounded bg-slate-200" />
      </div>
      <figcaption className="space-y-1 border-t border-slate-200 bg-slate-50 p-4 text-xs text-slate-600">
        {settings.companyName ? <p className="font-medium">{settings.companyName}</p> : null}
        {settings.companyAddress ? <p>{settings.companyAddress}</p> : null}
        {settings.companyWebsite ? <p className="break-all">{settings.companyWebsite}</p> : null}
        {socials.length > 0 ? (
          <p>
            {socials.map(([network]) => network[0].toUpperCase() + network.slice(1)).join(" · ")}
          </p>
        ) : null}
        {settings.footerText ? <p>{settings.footerText}</p> : null}
        {settings.enableUnsubscribeLink ? (
          <p>
            <span className="underline" style={{ color: brandText }}>
              Unsubscribe
            </span>
          </p>
        ) : null}
      </figcaption>
    </figure>
  );
}
